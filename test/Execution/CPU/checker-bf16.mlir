// A bf16 function in mixed precision, as frontends write it: bf16 arguments
// and results, f32 math between arith.extf and arith.truncf. Inputs are
// rounded to bf16 and stored in 2-byte buffers; the fused program runs in
// bf16, the reference in f64, and the tolerance is bf16's.

// RUN: spacefusion-run %s --reps=1 --entry=softmax_bf16 --temporal=n:64 | FileCheck %s
// RUN: not spacefusion-run %s --reps=1 --entry=softmax_bf16 --baseline-slack=0 --atol=0 --rtol=0 | FileCheck %s --check-prefix=EXACT

// CHECK: @softmax_bf16 on cpu
// CHECK: temporally sliced
// CHECK: against the f64 reference (bf16: atol 1.6E-02 x max|ref|, rtol 7.8E-03), out of tolerance: #0 0 of 4096: PASS

// EXACT: out of tolerance: #0 {{[1-9][0-9]*}} of 4096 first at [{{[0-9]+}}, {{[0-9]+}}]: FAIL

// Softmax over the last dim, decomposed as frontends emit it.
//   X   : tensor<16x256xf32> (the argument, extended)   [r, c]
//   Max = rowmax_c(X)   [r]   (seeded with -inf)
//   Exp = exp(X - Max)  [r, c]
//   Sum = rowsum_c(Exp) [r]
//   Y   = Exp / Sum     [r, c]
#map_2d  = affine_map<(r, c) -> (r, c)>
#map_row = affine_map<(r, c) -> (r)>

func.func @softmax_bf16(%x_h: tensor<16x256xbf16>) -> tensor<16x256xbf16> {
  %x_e = tensor.empty() : tensor<16x256xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0,d1) -> (d0,d1)>, affine_map<(d0,d1) -> (d0,d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x_h : tensor<16x256xbf16>) outs(%x_e : tensor<16x256xf32>) {
  ^bb0(%i: bf16, %o: f32):
    %c = arith.extf %i : bf16 to f32
    linalg.yield %c : f32
  } -> tensor<16x256xf32>

  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32

  // Max = rowmax(X)
  %max_init = tensor.empty() : tensor<16xf32>
  %max_fill = linalg.fill ins(%ninf : f32) outs(%max_init : tensor<16xf32>) -> tensor<16xf32>
  %max = linalg.generic {
      indexing_maps = [#map_2d, #map_row],
      iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x256xf32>) outs(%max_fill : tensor<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<16xf32>

  // Exp = exp(X - Max)
  %exp_init = tensor.empty() : tensor<16x256xf32>
  %exp = linalg.generic {
      indexing_maps = [#map_2d, #map_row, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<16x256xf32>, tensor<16xf32>)
      outs(%exp_init : tensor<16x256xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<16x256xf32>

  // Sum = rowsum(Exp)
  %sum_init = tensor.empty() : tensor<16xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {
      indexing_maps = [#map_2d, #map_row],
      iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<16x256xf32>) outs(%sum_fill : tensor<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16xf32>

  // Y = Exp / Sum
  %y_init = tensor.empty() : tensor<16x256xf32>
  %y = linalg.generic {
      indexing_maps = [#map_2d, #map_row, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<16x256xf32>, tensor<16xf32>)
      outs(%y_init : tensor<16x256xf32>) {
  ^bb0(%in: f32, %sm: f32, %out: f32):
    %r = arith.divf %in, %sm : f32
    linalg.yield %r : f32
  } -> tensor<16x256xf32>

  %y_t_e = tensor.empty() : tensor<16x256xbf16>
  %y_t = linalg.generic {indexing_maps = [affine_map<(d0,d1) -> (d0,d1)>, affine_map<(d0,d1) -> (d0,d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<16x256xf32>) outs(%y_t_e : tensor<16x256xbf16>) {
  ^bb0(%i: f32, %o: bf16):
    %c = arith.truncf %i : f32 to bf16
    linalg.yield %c : bf16
  } -> tensor<16x256xbf16>
  return %y_t : tensor<16x256xbf16>
}


