// Integer inputs (i32, i64: lengths, indices) are uniform in --int-range,
// the same values for every version, stored in their own width; a
// malformed range is refused.

// RUN: rm -rf %t && spacefusion-run %s --reps=1 --int-range=2:5 --dump=%t | FileCheck %s --check-prefix=VERDICT
// RUN: wc -c %t/input1.bin %t/input2.bin | FileCheck %s --check-prefix=SIZES
// RUN: python3 -c "import struct, sys; d = sys.argv[1]; a = struct.unpack('<4q', open(d + '/input1.bin', 'rb').read()); b = struct.unpack('<4i', open(d + '/input2.bin', 'rb').read()); print('in range', all(2 <= v <= 5 for v in a + b))" %t | FileCheck %s --check-prefix=VALUES
// RUN: not spacefusion-run %s --int-range=5:2 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not spacefusion-run %s --int-range=x 2>&1 | FileCheck %s --check-prefix=BAD

// VERDICT: @scale_rows on cpu
// VERDICT: out of tolerance: #0 0 of 32: PASS
// SIZES: 32 {{.*}}input1.bin
// SIZES: 16 {{.*}}input2.bin
// VALUES: in range True
// BAD: spacefusion-run: --int-range must be lo:hi with lo <= hi

func.func @scale_rows(%x: tensor<4x8xf32>, %n: tensor<4xi64>, %m: tensor<4xi32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %n, %m : tensor<4x8xf32>, tensor<4xi64>, tensor<4xi32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: i64, %c: i32, %out: f32):
    %bf = arith.sitofp %b : i64 to f32
    %cf = arith.sitofp %c : i32 to f32
    %s = arith.mulf %a, %bf : f32
    %t = arith.mulf %s, %cf : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
