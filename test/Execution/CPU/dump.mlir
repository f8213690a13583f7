// --dump=DIR writes every input as the compiled code reads it (row-major, in
// its own dtype), the f64 reference outputs, the unfused program's outputs
// (native dtype) and DIR/manifest.json: what bench/gpu_fuzz.py feeds to the
// GPU build of the same function and compares its outputs with.

// RUN: rm -rf %t && spacefusion-run %s --reps=1 --seed=7 --dump=%t | FileCheck %s --check-prefix=VERDICT
// RUN: wc -c %t/input0.bin %t/input1.bin %t/unfused0.bin %t/reference0.bin %t/unfused1.bin %t/reference1.bin | FileCheck %s --check-prefix=SIZES
// RUN: python3 -c "import json, sys; m = json.load(open(sys.argv[1])); print(m['function'], m['seed'], m['reference'], m['baseline_slack']); [print('in', a['file'], a['dtype'], a['shape']) for a in m['inputs']]; [print('out', r['unfused'], r['dtype'], r['reference'], r['reference_dtype'], r['shape']) for r in m['outputs']]; print(sorted(m['tolerances']), m['tolerances']['bf16'])" %t/manifest.json | FileCheck %s --check-prefix=MANIFEST
// The raw files hold what the checker compared: the unfused outputs equal
// the reference's within bf16's half ulp, and the inputs lie in [-1, 1].
// RUN: python3 -c "import struct, sys; d = sys.argv[1]; bf = lambda f: [struct.unpack('<f', struct.pack('<I', h << 16))[0] for h in struct.unpack('<32H', open(d + f, 'rb').read())]; ref = struct.unpack('<32d', open(d + '/reference0.bin', 'rb').read()); x = bf('/input0.bin'); print('inputs in range', all(-1 <= v <= 1 for v in x)); print('unfused near reference', all(abs(u - r) <= 2**-8 * max(1, abs(r)) for u, r in zip(bf('/unfused0.bin'), ref)))" %t | FileCheck %s --check-prefix=VALUES

// VERDICT: @bias_rowsum on cpu
// VERDICT: out of tolerance: #0 0 of 32, #1 0 of 4: PASS

// SIZES: 64 {{.*}}input0.bin
// SIZES: 32 {{.*}}input1.bin
// SIZES: 64 {{.*}}unfused0.bin
// SIZES: 256 {{.*}}reference0.bin
// SIZES: 16 {{.*}}unfused1.bin
// SIZES: 32 {{.*}}reference1.bin

// MANIFEST: bias_rowsum 7 f64 2
// MANIFEST-NEXT: in input0.bin bf16 [4, 8]
// MANIFEST-NEXT: in input1.bin f32 [8]
// MANIFEST-NEXT: out unfused0.bin bf16 reference0.bin f64 [4, 8]
// MANIFEST-NEXT: out unfused1.bin f32 reference1.bin f64 [4]
// MANIFEST-NEXT: ['bf16', 'f32'] {'atol': 0.015625, 'rtol': 0.0078125}

// VALUES: inputs in range True
// VALUES: unfused near reference True

#map = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @bias_rowsum(%x: tensor<4x8xbf16>, %b: tensor<8xf32>) -> (tensor<4x8xbf16>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4x8xbf16>
  %y = linalg.generic {indexing_maps = [#map, #col, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<4x8xbf16>, tensor<8xf32>) outs(%e : tensor<4x8xbf16>) {
  ^bb0(%in: bf16, %bias: f32, %out: bf16):
    %w = arith.extf %in : bf16 to f32
    %s = arith.addf %w, %bias : f32
    %t = arith.truncf %s : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<4x8xbf16>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xbf16>) outs(%acc : tensor<4xf32>) {
  ^bb0(%in: bf16, %a: f32):
    %w = arith.extf %in : bf16 to f32
    %s = arith.addf %a, %w : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %y, %sum : tensor<4x8xbf16>, tensor<4xf32>
}
