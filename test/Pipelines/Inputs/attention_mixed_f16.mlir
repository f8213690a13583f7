// Attention the way fp16 frontends write it: f16 operands extended inside
// the contraction bodies, f32 scores and softmax, P rounded to f16 before
// the second contraction, output rounded to f16.
#q = affine_map<(b, h, m, l, k) -> (b, h, m, k)>
#k = affine_map<(b, h, m, l, k) -> (b, h, l, k)>
#s = affine_map<(b, h, m, l, k) -> (b, h, m, l)>
#id = affine_map<(b, h, m, l) -> (b, h, m, l)>
#row = affine_map<(b, h, m, l) -> (b, h, m)>
#p = affine_map<(b, h, m, n, l) -> (b, h, m, l)>
#v = affine_map<(b, h, m, n, l) -> (b, h, l, n)>
#o = affine_map<(b, h, m, n, l) -> (b, h, m, n)>
#id4 = affine_map<(b, h, m, n) -> (b, h, m, n)>
func.func @attention(%q: tensor<2x4x1024x64xf16>, %k: tensor<2x4x1024x64xf16>, %v: tensor<2x4x1024x64xf16>) -> tensor<2x4x1024x64xf16> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.125 : f32
  %es = tensor.empty() : tensor<2x4x1024x1024xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x1024x1024xf32>) -> tensor<2x4x1024x1024xf32>
  %s = linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x1024x64xf16>, tensor<2x4x1024x64xf16>) outs(%zs : tensor<2x4x1024x1024xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %p = arith.mulf %a32, %b32 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<2x4x1024x1024xf32>
  %ss = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x1024x1024xf32>) outs(%es : tensor<2x4x1024x1024xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.mulf %a, %scale : f32
    linalg.yield %y : f32
  } -> tensor<2x4x1024x1024xf32>
  %er = tensor.empty() : tensor<2x4x1024xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4x1024xf32>) -> tensor<2x4x1024xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ss : tensor<2x4x1024x1024xf32>) outs(%mi : tensor<2x4x1024xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.maximumf %a, %acc : f32
    linalg.yield %y : f32
  } -> tensor<2x4x1024xf32>
  %e = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ss, %m : tensor<2x4x1024x1024xf32>, tensor<2x4x1024xf32>) outs(%es : tensor<2x4x1024x1024xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<2x4x1024x1024xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4x1024xf32>) -> tensor<2x4x1024xf32>
  %l = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%e : tensor<2x4x1024x1024xf32>) outs(%li : tensor<2x4x1024xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %a, %acc : f32
    linalg.yield %y : f32
  } -> tensor<2x4x1024xf32>
  %eh = tensor.empty() : tensor<2x4x1024x1024xf16>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%e, %l : tensor<2x4x1024x1024xf32>, tensor<2x4x1024xf32>) outs(%eh : tensor<2x4x1024x1024xf16>) {
  ^bb0(%a: f32, %b: f32, %o: f16):
    %d = arith.divf %a, %b : f32
    %y = arith.truncf %d : f32 to f16
    linalg.yield %y : f16
  } -> tensor<2x4x1024x1024xf16>
  %eo = tensor.empty() : tensor<2x4x1024x64xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x1024x64xf32>) -> tensor<2x4x1024x64xf32>
  %o = linalg.generic {indexing_maps = [#p, #v, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x1024x1024xf16>, tensor<2x4x1024x64xf16>) outs(%zo : tensor<2x4x1024x64xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %pr = arith.mulf %a32, %b32 : f32
    %y = arith.addf %acc, %pr : f32
    linalg.yield %y : f32
  } -> tensor<2x4x1024x64xf32>
  %eoh = tensor.empty() : tensor<2x4x1024x64xf16>
  %oh = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%o : tensor<2x4x1024x64xf32>) outs(%eoh : tensor<2x4x1024x64xf16>) {
  ^bb0(%a: f32, %b: f16):
    %y = arith.truncf %a : f32 to f16
    linalg.yield %y : f16
  } -> tensor<2x4x1024x64xf16>
  return %oh : tensor<2x4x1024x64xf16>
}
