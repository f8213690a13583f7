//===- Passes.td - SpaceMapping transformation passes ------*- tablegen -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_DIALECT_SMAP_TRANSFORMS_PASSES_TD
#define SPACEFUSION_DIALECT_SMAP_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// smap-form-graphs
//===----------------------------------------------------------------------===//

def SMapFormGraphsPass : Pass<"smap-form-graphs"> {
  let summary = "Group connected linalg ops on tensors into smap.graph ops";
  let description = [{
    In every function-like op under the anchor, groups connected ops that the
    Space-Mapping Graph can describe into `smap.graph` ops, one candidate
    kernel each. Members are linalg ops on static tensors whose indexing
    maps are projected permutations (named ops such as `linalg.matmul`,
    `linalg.batch_matmul`, `linalg.reduce`, `linalg.map`, `linalg.softmax`,
    `linalg.transpose`, `linalg.fill` and `linalg.generic`), plus the static
    relayouts `tensor.expand_shape`, `tensor.collapse_shape` and
    `tensor.extract_slice`, and the `tensor.empty` / constants they use.

    A group never creates a cycle (an op outside the group that both uses a
    member's result and feeds a member keeps the two apart); a value used
    outside the group becomes a graph output; groups may have several
    outputs. Ops outside the SMG's scope stay where they are and get a
    *missed* remark saying why: windowed maps (convolution, pooling),
    gathers (`tensor.extract` in a body), dynamic shapes, side effects.

    Example:

    ```mlir
    // Before
    %max = linalg.generic ... ins(%x) outs(%fill) { arith.maximumf }
    %exp = linalg.generic ... ins(%x, %max) outs(%e) { arith.subf, math.exp }
    // After
    %r = smap.graph(%a = %x : tensor<64x128xf32>) -> (tensor<64x128xf32>) {
      %max = linalg.generic ...
      %exp = linalg.generic ...
      smap.yield %exp : tensor<64x128xf32>
    }
    ```
  }];
  let options = [
    Option<"maxGroupSize", "max-group-size", "unsigned", /*default=*/"0",
           "Largest number of compute ops in one group (0: unbounded)">,
    ListOption<"excludeOps", "exclude", "std::string",
               "Op names (e.g. linalg.matmul) never grouped">,
    Option<"excludedAlone", "excluded-alone", "bool", /*default=*/"false",
           "Put each excluded op in a graph of its own (with its inits) "
           "instead of leaving it outside every graph: the GPU pipeline "
           "compiles only graphs, so this is how it runs an op unfused">
  ];
  let dependentDialects = ["::mlir::smap::SMapDialect"];
  let statistics = [
    Statistic<"numGraphsFormed", "graphs-formed", "smap.graph ops formed">,
    Statistic<"numOpsGrouped", "ops-grouped", "linalg ops grouped into graphs">
  ];
}

//===----------------------------------------------------------------------===//
// smap-fuse-conversions
//===----------------------------------------------------------------------===//

def SMapFuseConversionsPass : Pass<"smap-fuse-conversions"> {
  let summary = "Fold elementwise float conversions into their readers and producers";
  let description = [{
    Frontends computing in f32 from f16/bf16 tensors emit a whole-tensor
    `arith.extf` generic per input. As separate members they become f32
    intermediates that a block keeps on chip (a GEMM's converted operand
    tiles, twice the bytes of the inputs). This pass fuses every
    `linalg.generic` whose body is one `arith.extf` into its consumers
    (upstream elementwise fusion, restricted to these producers), so that the
    consumers read the inputs in their storage type and extend each element
    where they use it. A generic whose body is one `arith.truncf` takes its
    producer instead, when that is an elementwise generic used only by it:
    the division that makes attention's probabilities and the truncation
    that rounds them become one generic, as the in-body form writes it,
    rather than an f32 tile and an f16 tile of the same values. A
    `arith.truncf` generic read once, by a generic of parallel loops only,
    is fused into that reader: a half model's GEMM (its accumulator widened
    by smap-widen-accumulators) rounds the accumulator in its bias + GELU
    epilogue's body, as the mixed-precision form writes it, instead of
    keeping an f16 tile of the rounded accumulator. A contraction or a
    reduction reading a truncation keeps it (the precision of its operand).
    Every fusion computes the same values in the same order. Nothing else
    is fused.

    ```mlir
    // Before
    %af = linalg.generic ... ins(%a : tensor<256x128xf16>) ... { arith.extf }
    %c  = linalg.generic ... ins(%af, %bf : tensor<256x128xf32>, ...) ...
    // After
    %c  = linalg.generic ... ins(%a, %b : tensor<256x128xf16>, ...) {
    ^bb0(%x: f16, %y: f16, %acc: f32):
      %xf = arith.extf %x : f16 to f32
      ...
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

//===----------------------------------------------------------------------===//
// smap-split-contraction-operands
//===----------------------------------------------------------------------===//

def SMapGeneralizeNamedOpsPass : Pass<"smap-generalize-named-ops"> {
  let summary = "Rewrite named structured linalg ops as linalg.generic before analysis";
  let description = [{
    Frontends spell the same computation as named ops (`linalg.matmul`,
    `linalg.transpose`, `linalg.map`, `linalg.reduce`, `linalg.broadcast`,
    `linalg.elementwise`, ...) or as `linalg.generic`. The normalizations
    that follow (conversions folded into their readers, transposed copies
    folded into contractions) and the row-kernel recognition match the
    generic form, so a named form missed the kernels its generic spelling
    gets. This pass rewrites every named structured op the Space-Mapping
    Graph can describe (on tensors, projected-permutation maps) into the
    `linalg.generic` it stands for (upstream `linalg::generalizeNamedOp`,
    the rewrite of `--linalg-generalize-named-ops`), so that the fusion
    decision does not depend on the spelling. It runs first in both
    pipelines.

    Left as written: `linalg.fill` and `linalg.copy` (the SMG's inits and
    the lowerings' own data movement, matched by name), windowed ops
    (convolution, pooling: never fused, their remark names them), ops on
    buffers, the ops named in `exclude` (smap-form-graphs' exclude list,
    which the pipelines pass on: the user excluded them as written), and
    every named op when `exclude` names `linalg.generic` (generalizing
    would put them under an exclusion written for other ops).
    `linalg.softmax` is not a structured op; smap-decompose-aggregates
    expands it after grouping.

    ```mlir
    // Before
    %x32 = linalg.map { arith.extf } ins(%x : tensor<64x128xf16>)
                                     outs(%e : tensor<64x128xf32>)
    // After
    %x32 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                            affine_map<(d0, d1) -> (d0, d1)>],
                           iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<64x128xf16>) outs(%e : tensor<64x128xf32>) {
    ^bb0(%in: f16, %out: f32):
      %0 = arith.extf %in : f16 to f32
      linalg.yield %0 : f32
    } -> tensor<64x128xf32>
    ```
  }];
  let options = [
    ListOption<"excludeOps", "exclude", "std::string",
               "Op names left as they are (smap-form-graphs' exclude list, "
               "which the pipelines pass on)">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def SMapFoldBroadcastsPass : Pass<"smap-fold-broadcasts"> {
  let summary = "Read broadcast tensors through indexing maps instead of copies";
  let description = [{
    Named-op frontends materialize a row statistic, a bias or a scale at
    the shape of its reader (`linalg.broadcast`, which
    `smap-generalize-named-ops` turns into a copy generic) and the reader
    takes it elementwise; generic frontends read the smaller tensor through
    a projected map. In the first form the Space-Mapping Graph sees a value
    over every dim mixed with the data: a LayerNorm's `x - mean` is no
    longer recognized as a centered value (its hidden dim not sliceable),
    and every block re-reads the materialized tensor. This pass rewrites
    each input of a `linalg.generic` produced by a broadcasting copy (all
    loops parallel, a body that yields its input unchanged, the output
    written through a permutation, the input read through a projected
    permutation that leaves a loop out) into the copy's input, read through
    the composed map. An input stays as it is when it alone gives a loop of
    the reader its extent (a reduction over the broadcast dim). The copy is
    erased when no reader is left. Nothing changes when `exclude` names
    `linalg.generic` (the user asked for the generics as written). It runs
    in both pipelines after `smap-generalize-named-ops`.

    ```mlir
    // Before
    %mb = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r)>,
                                           affine_map<(r, c) -> (r, c)>],
                          iterator_types = ["parallel", "parallel"]}
        ins(%mean : tensor<64xf32>) outs(%e : tensor<64x768xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<64x768xf32>
    %d = linalg.generic {indexing_maps = [#id, #id, #id], ...}
        ins(%x, %mb : tensor<64x768xf32>, tensor<64x768xf32>) ... // x - mb
    // After
    %d = linalg.generic {indexing_maps = [#id, affine_map<(r, c) -> (r)>, #id], ...}
        ins(%x, %mean : tensor<64x768xf32>, tensor<64xf32>) ...   // x - mean
    ```
  }];
  let options = [
    ListOption<"excludeOps", "exclude", "std::string",
               "Op names left as they are (smap-form-graphs' exclude list, "
               "which the pipelines pass on)">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def SMapFoldEmptyDomainsPass : Pass<"smap-fold-empty-domains"> {
  let summary = "Replace linalg ops that iterate over nothing by their inits";
  let description = [{
    A linalg op whose iteration domain has a dim of extent 0 runs its body
    zero times: each result is its init, exactly. Frontends write such ops
    for empty batches and masked-out tails (a tensor with a dim of size 0),
    and a reduction over an empty dim yields its init (a fill of the
    identity). The SMG leaves ops on zero-size tensors out of every graph,
    so the GPU path had no kernel for them and refused the function; after
    this pass they are gone, and a function whose results have no elements
    runs no kernel at all. The domain is empty when an operand has a static
    dim of size 0 that its indexing map reads with a plain loop dim (a dim
    reached only through an expression, such as a convolution's window, is
    not counted). Both pipelines run it right after named ops are
    generalized and aggregates decomposed.

    ```mlir
    // Before: a max over 0 rows of 257 columns.
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                          affine_map<(d0, d1) -> (d1)>],
                         iterator_types = ["reduction", "parallel"]}
        ins(%x : tensor<0x257xf32>) outs(%fill : tensor<257xf32>) {...}
    // After: %r is replaced by %fill (the reduction's identity).
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def SMapStoreIndicesAsI64Pass : Pass<"smap-store-indices-as-i64"> {
  let summary = "Store index-typed intermediate tensors as i64";
  let description = [{
    A `tensor<...xindex>` has no storage size of its own (the target's index
    width decides it), so the Space-Mapping Graph describes no such tensor
    and the GPU has no loop kernel for an op writing one: a function that
    computes an iota from `linalg.index` and reads it in a float op (the
    differential fuzzer's `index-element-type` programs) failed on the GPU
    ("element type index"). Between generics the values can be stored as
    i64, the index width of every target here, so no value changes: this
    pass rewrites a linalg.generic's index result that only generics read,
    whose init's values its body does not read, into an i64 result (an
    `arith.index_cast` before the yield, a fresh `tensor.empty` as the init)
    and casts each reader's argument back to index. Index tensors at the
    function's boundary, or read by any other op, are left as written (and
    keep their diagnostic). Both pipelines run it after empty domains are
    folded.

    ```mlir
    // Before
    %iota = linalg.generic {...} outs(%e : tensor<8x16xindex>) {
      ^bb0(%o: index):
        %i = linalg.index 1 : index
        linalg.yield %i : index
    } -> tensor<8x16xindex>
    %y = linalg.generic {...} ins(%x, %iota : tensor<8x16xf32>, tensor<8x16xindex>) ... {
      ^bb0(%a: f32, %i: index, %o: f32):
        %n = arith.index_cast %i : index to i32
        ...
    }
    // After
    %e64 = tensor.empty() : tensor<8x16xi64>
    %iota = linalg.generic {...} outs(%e64 : tensor<8x16xi64>) {
      ^bb0(%o: i64):
        %i = linalg.index 1 : index
        %w = arith.index_cast %i : index to i64
        linalg.yield %w : i64
    } -> tensor<8x16xi64>
    %y = linalg.generic {...} ins(%x, %iota : tensor<8x16xf32>, tensor<8x16xi64>) ... {
      ^bb0(%a: f32, %w: i64, %o: f32):
        %i = arith.index_cast %w : i64 to index
        %n = arith.index_cast %i : index to i32
        ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def SMapSpecializeFillsPass : Pass<"smap-specialize-fills"> {
  let summary = "Turn fill-like linalg.generic ops back into linalg.fill";
  let description = [{
    Upstream `--linalg-generalize-named-ops`, and frontends that emit only
    generics, write a fill as a parallel generic with no inputs whose body
    yields a scalar defined outside it. The SMG takes a `linalg.fill` as an
    init, and the lowerings zero an accumulator by one: the generic form
    of the same fill made the wgmma GEMM lowering refuse the schedule it
    was given. This pass rewrites every such generic (no inputs, all loops
    parallel, the identity map, a body that only yields a value defined
    outside it: a constant or a function argument) into the `linalg.fill`
    it is. It runs in both pipelines, right after
    `smap-generalize-named-ops` (which leaves `linalg.fill` as written).

    ```mlir
    // Before
    %z = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
        outs(%e : tensor<64x64xf32>) {
    ^bb0(%out: f32):
      linalg.yield %zero : f32
    } -> tensor<64x64xf32>
    // After
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def SMapPrivatizeFillsPass : Pass<"smap-privatize-fills"> {
  let summary = "Give each writer of a fill inside a loop a fill of its own";
  let description = [{
    `cse` merges equal fills: after the temporal slicer, the fill that
    starts a loop's state (before the loop) and the fill that starts the
    partial of each slice (inside it) become one value, written by both.
    One-shot bufferization then keeps the filled buffer and copies it on
    every iteration: a buffer more in the block's shared memory and a copy
    per slice. This pass gives each op inside a loop (any region below the
    fill's block) that writes the fill (the init of a destination-style op
    or of a loop) a fill of its own right before it, and so every writer in
    the fill's block but the first: a fill shared by two results of a block
    was placed by empty-tensor elimination in one result's tile, and the
    other result, computed there, was copied out after that tile had been
    overwritten. Readers keep the fill. It runs on the GPU path right
    before bufferization.

    ```mlir
    // Before
    %f = linalg.fill ins(%inf : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
    %r = scf.for %i = %c0 to %c512 step %c128 iter_args(%s = %f) -> (tensor<64xf32>) {
      %p = linalg.generic {...} ins(%x : tensor<64x128xf32>) outs(%f : tensor<64xf32>) {...}
      ...
    }
    // After: the partial's init is a fill of its own.
      %e2 = tensor.empty() : tensor<64xf32>
      %f2 = linalg.fill ins(%inf : f32) outs(%e2 : tensor<64xf32>) -> tensor<64xf32>
      %p = linalg.generic {...} ins(%x : tensor<64x128xf32>) outs(%f2 : tensor<64xf32>) {...}
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def SMapReadOnlyArgumentsPass : Pass<"smap-read-only-arguments",
                                      "::mlir::func::FuncOp"> {
  let summary = "Keep bufferization from writing into a public function's inputs";
  let description = [{
    One-shot bufferization with `bufferize-function-boundaries` takes a
    function's tensor arguments as writable buffers: an op whose init is an
    argument (a GEMM accumulating into a bias, an elementwise op written in
    destination style over its last input) is computed in the caller's
    buffer, and the caller's input changes. The tensor semantics the user
    wrote say it does not; a torch or numpy array handed to a compiled
    function would be overwritten. This pass marks every tensor argument of
    a public function `bufferization.writable = false`, so bufferization
    copies such an init before writing it. An argument already carrying the
    attribute keeps it: a caller that wants in-place updates (a KV cache)
    says so with `bufferization.writable = true`. Private functions are
    left to bufferization's call analysis. Both lowering pipelines run it
    right before bufferization.

    ```mlir
    // Before
    func.func @f(%x: tensor<64xf32>, %acc: tensor<64xf32>) -> tensor<64xf32>
    // After
    func.func @f(%x: tensor<64xf32> {bufferization.writable = false},
                 %acc: tensor<64xf32> {bufferization.writable = false})
        -> tensor<64xf32>
    ```
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def SMapWidenAccumulatorsPass : Pass<"smap-widen-accumulators"> {
  let summary = "Accumulate contractions and sums of 16-bit storage type in f32";
  let description = [{
    A contraction whose accumulator has the 16-bit type of its operands
    (`linalg.matmul` of f16 into f16, "storage type = compute type") is
    rewritten into one that extends its operands and accumulates in f32,
    followed by an elementwise `arith.truncf` to the original type (named
    ops are generalized first). The products of two 16-bit values are
    exact in f32 and the f32 sum is at least as accurate as the f16 one, so
    the result differs from the program's f16 accumulation only by that
    accumulation's own error, which it removes: it is what cuBLAS and
    PyTorch compute for a 16-bit GEMM (docs/Rationale.md, "16-bit
    accumulators"). It runs first in both pipelines, which take
    `widen-accumulators=false` to keep the program's 16-bit accumulation
    (on CUDA cores: no tensor-core strategy accumulates in 16 bits yet).

    A 16-bit sum is widened the same way (a softmax's row sum, an RMSNorm's
    sum of squares, an `exp(s - max)` summed in one body after
    `linalg-fuse-elementwise-ops`): its body is computed in f32 and the
    result rounded once. Max and min reductions are exact and left alone.

    Matched: one 16-bit result, reduction loops, inputs of the same type, a
    body of `addf`, `subf`, `mulf`, `divf`, `maximumf`, `minimumf`,
    `maxnumf`, `minnumf`, `negf`, `math.exp`, `math.exp2` on that type whose
    accumulator is used once, by the final add. Scalars captured from above
    are extended inside the body.

    ```mlir
    // Before
    %c = linalg.matmul ins(%a, %b : tensor<64x32xf16>, tensor<32x16xf16>)
                       outs(%zero : tensor<64x16xf16>) -> tensor<64x16xf16>
    // After
    %acc = linalg.fill ins(%zero32 : f32) outs(%e : tensor<64x16xf32>)
    %w = linalg.generic ... ins(%a, %b : tensor<64x32xf16>, tensor<32x16xf16>)
        outs(%acc : tensor<64x16xf32>) {
      extf, extf, mulf, addf : f32
    }
    %c = linalg.generic ... ins(%w) outs(... : tensor<64x16xf16>) { truncf }
    ```
  }];
  let options = [
    ListOption<"excludeOps", "exclude", "std::string",
               "Op names left as they are (smap-form-graphs' exclude list, "
               "which the pipelines pass on)">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def SMapRoundContractionsToTF32Pass : Pass<"smap-round-contractions-to-tf32"> {
  let summary = "Let f32 contractions read their operands as TF32 (tensor cores)";
  let description = [{
    Tensor cores multiply f32 operands only as TF32 (a 10-bit mantissa), so
    an f32 contraction runs on CUDA cores unless the user allows the
    rounding, as PyTorch's `allow_tf32` does: the pipelines run this pass
    when given `tf32=true`. It writes the rounding into the body of every
    linalg.generic that is a contraction `acc + x * y` of two f32 inputs
    into f32: each factor becomes `arith.extf(arith.truncf(x : f32 to
    tf32))`. The decision is then in the IR, where every later stage reads
    it: the tensor-core legality takes such a contraction as a TF32 one
    (`mma.sync` m16n8k8, the operands rounded as they are loaded), and any other path computes the same rounded products
    (smap-expand-tf32-rounding). Named ops are generalized first; other
    contractions are left as they are: 16-bit operands, extended in the
    body or by a separate conversion generic (the tensor cores take those
    as 16-bit ones), and factors already rounded.

    The rounding is to nearest, ties away from zero (`to_nearest_away`, as
    CUTLASS and `cvt.rna.tf32.f32` round): each factor errs by at most
    2^-11 relative, each product by at most about 2^-10, and the products
    are accumulated in f32 (docs/Rationale.md, "TF32").

    ```mlir
    // Before
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
    // After
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %xt = arith.truncf %x to_nearest_away : f32 to tf32
      %xr = arith.extf %xt : tf32 to f32
      %yt = arith.truncf %y to_nearest_away : f32 to tf32
      %yr = arith.extf %yt : tf32 to f32
      %p = arith.mulf %xr, %yr : f32
      %s = arith.addf %acc, %p : f32
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def SMapExpandTF32RoundingPass : Pass<"smap-expand-tf32-rounding"> {
  let summary = "Compute TF32 roundings no tensor core consumed on f32 bits";
  let description = [{
    LLVM has no TF32 type. A rounding `arith.extf(arith.truncf(x : f32 to
    tf32))` that no tensor-core lowering consumed (a TF32 contraction on
    CUDA cores, or on the CPU, where the same program then computes the
    GPU's products) becomes integer arithmetic on x's bits: the 13 mantissa
    bits TF32 drops rounded off, to nearest with ties away from zero; NaN
    stays NaN and a value past TF32's largest rounds to infinity. Both pipelines
    run it before the LLVM conversions. A TF32 value used any other way
    (stored, or rounded in another mode) is an error naming its user.

    ```mlir
    // Before
    %t = arith.truncf %x to_nearest_away : f32 to tf32
    %r = arith.extf %t : tf32 to f32
    // After
    %bits = arith.bitcast %x : f32 to i32
    ... (%bits + 0x1000) & 0xFFFFE000, as f32 ...
    %r = arith.select %isNaN, %x, %rounded : f32
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def SMapFoldContractionRelayoutsPass : Pass<"smap-fold-contraction-relayouts"> {
  let summary = "Fold reshapes and transposed copies into contractions' indexing maps";
  let description = [{
    torch-mlir writes a linear layer on 3-D input as `tensor.collapse_shape`
    of the activations, a transpose of the weight as a copy generic, a 2-D
    matmul and `tensor.expand_shape` of its result. The SMG then sees the
    batch and sequence dims merged by reshapes (which the slicers cannot
    cut yet) and an intermediate (the transposed weight) broadcast along
    them, so the graph could only be tiled along the output features.
    This pass folds those relayouts into the contraction, with upstream's
    patterns restricted to contractions: a named contraction next to one is
    generalized; a collapse feeding it or an expand of its result becomes
    part of its iteration space (reshape propagation by expansion); a copy
    that only permutes (and possibly extends) one input is fused into it
    (elementwise fusion of that operand). The ops between two contractions
    expand with them, reductions included: attention written with the heads
    collapsed into the batch (IREE's and StableHLO's form) iterates the
    4-D (b, h, m, l) space from Q.K^T through the softmax to P.V, and a
    collapsed K transposed by a copy expands and folds into Q.K^T's map.
    Each element is computed by the same ops in the same order.

    ```mlir
    // Before
    %x2 = tensor.collapse_shape %x [[0, 1], [2]] : tensor<4x512x1024xf16> into tensor<2048x1024xf16>
    %wt = linalg.generic {maps = [(d0, d1) -> (d1, d0), (d0, d1) -> (d0, d1)]} ins(%w) ... { yield }
    %y2 = linalg.matmul ins(%x2, %wt) outs(%zero) -> tensor<2048x1024xf16>
    %y = tensor.expand_shape %y2 [[0, 1], [2]] ...
    // After: one contraction over (b, m, n, k)
    %y = linalg.generic {maps = [(b, m, n, k) -> (b, m, k), (b, m, n, k) -> (n, k),
                                 (b, m, n, k) -> (b, m, n)]} ins(%x, %w) outs(%zero3d)
    ```
  }];
  let options = [
    ListOption<"excludeOps", "exclude", "std::string",
               "Op names left as they are (smap-form-graphs' exclude list, "
               "which the pipelines pass on)">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def SMapSplitContractionOperandsPass : Pass<"smap-split-contraction-operands"> {
  let summary = "Materialize contraction multiplicands computed from several inputs";
  let description = [{
    Upstream elementwise fusion (`--linalg-fuse-elementwise-ops`) moves
    elementwise producers into the bodies of the ops that read them,
    contractions included. Attention's normalization then sits in the
    P.V contraction, which reads three tensors: the dependency structure
    is the same, but the member is no longer a contraction of two
    matrices and no tensor-core strategy applies. For a `linalg.generic`
    with one reduction loop whose body is `acc + x * y`, this pass
    computes a multiplicand `x` that reads two or more inputs (through
    ops nothing else uses, with projected-permutation maps) in an
    elementwise generic over the loops those inputs use, and makes the
    contraction read it instead. A multiplicand of the form `extf(t)` is
    materialized as `t`, in its narrower type, and extended where it is
    read. Nothing else changes: each element is computed by the same ops
    in the same order.

    ```mlir
    // Before
    %o = linalg.generic {iterator_types = [..., "reduction"]}
        ins(%e, %sum, %v : tensor<64x256xf32>, tensor<64xf32>, tensor<256x32xf16>) ... {
    ^bb0(%x: f32, %s: f32, %w: f16, %acc: f32):
      %p = arith.divf %x, %s : f32
      %wf = arith.extf %w : f16 to f32
      %m = arith.mulf %p, %wf : f32
      %r = arith.addf %acc, %m : f32
      linalg.yield %r : f32
    }
    // After
    %p = linalg.generic {iterator_types = ["parallel", "parallel"]}
        ins(%e, %sum : tensor<64x256xf32>, tensor<64xf32>) ... { arith.divf }
    %o = linalg.generic {iterator_types = [..., "reduction"]}
        ins(%p, %v : tensor<64x256xf32>, tensor<256x32xf16>) ... {
      ... arith.extf, arith.mulf, arith.addf
    }
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

//===----------------------------------------------------------------------===//
// smap-analyze
//===----------------------------------------------------------------------===//

def SMapAnalyzePass : Pass<"smap-analyze"> {
  let summary = "Build the Space-Mapping Graph of every smap.graph and classify its dims";
  let description = [{
    Builds the SMG of each `smap.graph` (global dims aligned by union-find
    over one-to-one mappings, each member's iteration space, each operand's
    mapping kinds) and annotates the IR:

    * the graph gets `dims = [#smap.dim<name, extent, class>, ...]`;
    * each member op gets `smap.space = #smap.space<...>`;
    * a dim classified `parallel_recompute` lists the intermediates each
      block recomputes in `smap.recompute`; a `temporal` dim lists its
      dependent-reduction chain in `smap.chains`.

    Every classification is also an optimization remark
    (`--remarks-filter=smap`), e.g.
    `dim 'l' is temporal: dependent reductions max -> add -> add`.

    ```mlir
    %0 = smap.graph(...) -> (...) attributes {
        dims = [#smap.dim<"m", 512, parallel>, #smap.dim<"l", 512, temporal>,
                #smap.dim<"k", 64, temporal>, #smap.dim<"n", 64, parallel_recompute>]}
    ```
  }];
  let options = [
    Option<"allowUpdateThenAggregate", "allow-uta", "bool", /*default=*/"true",
           "Allow dependent-reduction chains to be temporally sliced with "
           "Update-then-Aggregate (online softmax, Welford); when false such "
           "dims are not_sliceable">
  ];
  let dependentDialects = ["::mlir::smap::SMapDialect"];
}

//===----------------------------------------------------------------------===//
// smap-set-target
//===----------------------------------------------------------------------===//

def SMapSetTargetPass : Pass<"smap-set-target"> {
  let summary = "Attach a built-in #smap.target to every smap.graph";
  let description = [{
    Records on each `smap.graph` the hardware later passes schedule for, from
    a built-in description: `sm_90a` (H100/H200, the default), `sm_80`
    (A100) or `cpu`. A graph that already has a `target` keeps it (a target
    written by the user wins), with a remark. An unknown name is an error
    that lists the known ones.

    ```mlir
    // spacefusion-opt --smap-set-target=target=sm_80
    %0 = smap.graph(...) -> (...) attributes {
        target = #smap.target<name = "sm_80", smem_per_block = 166912, ...>}
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"sm_90a\"",
           "Built-in target: sm_90a, sm_80 or cpu">
  ];
  let dependentDialects = ["::mlir::smap::SMapDialect"];
}

//===----------------------------------------------------------------------===//
// smap-schedule
//===----------------------------------------------------------------------===//

def SMapSchedulePass : Pass<"smap-schedule"> {
  let summary = "Choose how each smap.graph is sliced for its target";
  let description = [{
    Resource-aware slicing: for each `smap.graph`, builds its SMG, then
    searches spatial tiles of its parallel dims (powers of two that divide
    the extent, or the whole extent) and a temporal slice of at most one
    temporal dim. Each candidate's footprint (shared memory per block at one
    temporal step, registers per thread for the reduction state) is checked
    against the graph's `#smap.target` (`sm_90a` when it has none); the ones
    that fit are ranked by an analytic time: global traffic, counting
    broadcast inputs re-read by every block and a second read when outputs
    need a final pass, FLOPs at the target's tensor-core or CUDA-core rate
    with the recomputation that slicing a `parallel_recompute` dim causes,
    and wave quantization over the SMs. On an sm_90 target, a graph that is
    a single GEMM (A [m, k] and B [k, n] 16-bit matrices it reads from
    memory, plus elementwise work) chooses between two lowerings: blocks of
    64 x {64..256} or 128 x 128 with k sliced by 64 run on wgmma at the
    target's f16 rate, with the wgmma lowering's own footprint (TMA stages,
    the accumulator tile over them, the epilogue written in place); other
    tiles run on mma.sync, charged at the target's `mma_sync_gflops`.
    Graphs with more contractions have only mma.sync, whose rate then
    ranks nothing. The winner is written as
    `schedule = #smap.schedule<...>`; a remark gives its strategy,
    footprint, predicted time and the runner-up.

    The kernel strategy is decided here, once, with the tiles, from the
    target's features and the options (`tensor-cores`, `wgmma`,
    `row-fragments`, `warp-specialize`): `wgmma_tma` (`wgmma_tma_ws`) for a
    single GEMM on a wgmma tile, `row_fragments` (`row_fragments_wgmma`)
    when every intermediate is a tile of the block's rows that fits the
    registers, `mma_sync` when a contraction runs on tensor cores, `simt`
    otherwise, `loops` on a CPU. The schedule's `threads` are the
    strategy's. The GPU lowering builds that strategy or fails.

    Before the search, a graph that reduces along one innermost dim only
    (softmax, LayerNorm, RMSNorm, elementwise chains) and is the whole of its
    function becomes a row kernel (`strategy = rows`, unless `rows=false`):
    the legality and layout are `Analysis/RowKernelPlan.h`'s, the ones
    `convert-smap-to-gpu` builds. A warp holds a row of up to 32 elements per
    lane (2 rows per block), a block of up to 512 threads a longer one;
    `rows-per-block` and `row-threads` ask for another layout, and one the
    graph cannot take is an error. The remark gives the layout, or, on a
    GPU target, why the graph is not a row kernel. The `spatial` and
    `temporal` options do not apply to row kernels.

    A schedule given by the user, as a `schedule` attribute already on the
    graph or with the `spatial` / `temporal` options (applied to every
    graph), replaces the search; it is checked against the graph (known
    dims, a spatial slice only of parallel dims, a temporal slice only of a
    temporal dim, sizes that divide the extents) and against the target's
    budget, and rejected with an error otherwise.

    When no candidate fits, the graph is partitioned (SMG partition): it is
    cut between two of its ops where the cut intermediate costs the least
    global traffic, each part becomes its own `smap.graph`, and each is
    scheduled in turn; a remark says why and where. A single op that does
    not fit (or a graph no dim of which can be cut: a reshape merging every
    dim) is left out of every graph with a remark (`unfused`): on a GPU
    target it runs as a loop kernel of its own, when a loop kernel can run
    it, on a CPU as loops; otherwise, and with `partition=false`, it is an
    error. A graph whose best fused schedule is predicted more
    than 10x slower than its ideal time (its FLOPs at peak, or its inputs
    and outputs moved once) is also compared with its best partition, and
    partitioned when the parts are predicted at least twice as fast (a wide
    MLP whose hidden tile cannot stay on chip becomes two GEMM kernels).
    On GPU targets, a graph whose best schedule has fewer blocks than the
    target has SMs (a decode step: 32 heads of 16 queries against 4096
    keys; a GEMM of 16 rows) may split a temporal dim across blocks
    (split-K, split-KV; `Transforms/SplitReduction.h`): a partial graph
    computes the unfused program over each part of the dim, with a new
    parallel dim for the parts, and a merge graph combines the parts with
    the temporal slicer's update functions (a running max by max; a sum
    rescaled by exp(m_s - M), with its postponed factors removed from each
    part and applied once). The parts (2 to 64, powers of two, at least 64
    elements each) are chosen by the predicted time of both graphs; the
    split is taken when they are predicted at least 2x faster than the
    unsplit graph, and a remark gives both predictions (or says why no
    split was taken). This search is off by default (`split-reductions=true`
    turns it on). Measured on the H200 (bench/results/split-default.md): it
    splits the bf16 decode step (predicted 2.5x, measured 1.40x faster) and
    a 16-query cross attention (1.51x), and no longer the 16-row GEMM
    (predicted 1.29x, measured 0.87x); but it also splits a small MLP
    (256x128x512, predicted 2.8x, measured 0.92x), and the small graphs of
    the examples and tests it would split are not measured yet. `split=l:4` forces
    a split and fails, naming the op, when the graph cannot take it.

    On GPU targets, an f32 tensor that crosses the cut only as an operand of
    contractions whose other operand is f16 goes through memory rounded to
    f16 (a `truncf` ends the first part; its extension folds into the
    contractions of the second): the tensor cores round that operand to f16
    anyway, so the results are the same, the cut moves half the bytes, and
    the second part reads a 16-bit matrix (which the wgmma lowering needs).

    ```mlir
    %0 = smap.graph(...) -> (...) attributes {
        schedule = #smap.schedule<spatial = [b = 1, h = 1, m = 64],
                                  temporal = [l = 64], grid = [2, 8, 8],
                                  threads = 128, smem = 49152, regs = 96>,
        target = #smap.target<name = "sm_90a", ...>}
    ```
  }];
  let options = [
    ListOption<"spatial", "spatial", "std::string",
               "Force spatial tiles, as dim:size entries (e.g. m:64,n:32)">,
    ListOption<"temporal", "temporal", "std::string",
               "Force the temporal slice, as a dim:size entry (e.g. l:64)">,
    ListOption<"split", "split", "std::string",
               "Split a temporal dim into parts run side by side, as a "
               "dim:parts entry (e.g. l:4), in every graph that has the dim; "
               "`spatial` and `temporal` then tile the partial graph">,
    Option<"splitReductions", "split-reductions", "bool", /*default=*/"false",
           "On GPU targets, split a temporal dim across blocks when the "
           "graph's blocks do not fill the SMs and the partial and merge "
           "graphs are predicted at least 2x faster (off by default: the "
           "model's choice is not reliable yet for small graphs, "
           "bench/results/split-default.md)">,
    Option<"candidates", "candidates", "unsigned", /*default=*/"0",
           "Report the N best candidates of each graph's search as "
           "`candidate` remarks, with what each prediction is made of "
           "(memory and compute time, wave utilization, step costs) and "
           "what decided each rank">,
    Option<"partition", "partition", "bool", /*default=*/"true",
           "Partition graphs that no schedule fits, or whose parts are "
           "predicted much faster than the fused graph; on a GPU target, "
           "leave a single op that does not fit to a loop kernel">,
    Option<"tensorCores", "tensor-cores", "bool", /*default=*/"true",
           "Allow strategies that run contractions on tensor cores">,
    Option<"wgmma", "wgmma", "bool", /*default=*/"true",
           "Allow the wgmma strategies (on targets with wgmma and TMA)">,
    Option<"rowFragments", "row-fragments", "bool", /*default=*/"true",
           "Allow the row-fragment strategies (intermediates in registers)">,
    Option<"l2Reuse", "l2-reuse", "bool", /*default=*/"false",
           "Price an input's re-reads that L2 still holds (the data all "
           "inputs' tiles take between two reads of a tile fits in half of "
           "it) at the target's `l2_gbps`, not at DRAM bandwidth (off by "
           "default: bench/results/model-check-h100 measured what it "
           "changes)">,
    Option<"oneWave", "one-wave", "int64_t", /*default=*/"2",
           "How a grid of one wave or less is priced: 0 by the block slots "
           "it fills (SMs x resident blocks), 1 by the SMs it keeps busy when "
           "memory-bound, 2 by the SMs it keeps busy (the default: "
           "bench/results/one-wave-h100 measured the three)">,
    Option<"waitedLoads", "waited-loads", "bool", /*default=*/"true",
           "Price the load latency a temporal step waits out when nothing "
           "loads its tiles ahead (no cp.async stages, no copy through "
           "registers): 0.5 us per group of 16 chunks a thread copies, per "
           "step (false: the steps' barriers only, the model before it)">,
    Option<"overlapSteps", "overlap-steps", "bool", /*default=*/"false",
           "Price the temporal steps' barriers as overlapping the memory "
           "traffic: max(memory, compute + barriers) + waited loads (off by "
           "default: it slows 12 of the 35 benchmark workloads it changes "
           "by more than 3% on an H100, bench/results/overlap-steps)">,
    Option<"blocksPerSm", "blocks-per-sm", "int64_t", /*default=*/"0",
           "Build every GPU block kernel for this many blocks per SM: each "
           "thread starts with what that residency leaves it of the "
           "register file (`nvvm.maxnreg`), and the search prices that "
           "residency; a candidate whose shared memory does not fit it is "
           "refused (0: the search declares two for row-fragment blocks on "
           "wgmma with a ragged last slice where two fit, else nothing)">,
    Option<"warpSpecialize", "warp-specialize", "bool", /*default=*/"false",
           "Warp-specialize every wgmma GEMM block (a producer warp or "
           "warpgroup issues the TMA loads), not only the 128-row tiles "
           "other than 128 x 128">,
    Option<"producerWarps", "producer-warps", "int64_t", /*default=*/"4",
           "The producer of a warp-specialized block: 1 (a warp) or 4 (a "
           "warpgroup)">,
    Option<"asyncStages", "async-stages", "int64_t", /*default=*/"3",
           "The deepest TMA pipeline a wgmma block may get (at least 2, at "
           "most 4); the depth is chosen for the waves the grid fills">,
    Option<"rowWarpReplicas", "row-warp-replicas", "int64_t",
           /*default=*/"4",
           "Warps (1 or 4) that run a row-fragment block of one row warp "
           "(16 rows, or 32 in two slabs) when the grid has at most one "
           "block per SM and no tile that moves with the temporal step is "
           "read by other blocks too: each computes the same rows, all "
           "issue the staged tiles' copies, the first writes the results">,
    Option<"rows", "rows", "bool", /*default=*/"true",
           "On GPU targets, run a graph that reduces along one innermost dim "
           "only (softmax, LayerNorm, RMSNorm) and takes tensors only, as a "
           "row kernel (strategy rows)">,
    Option<"rowCache", "row-cache", "bool", /*default=*/"true",
           "Keep the inputs of a row kernel's row streamed in tiles in "
           "shared memory when they fit, so that only the first pass reads "
           "them from global memory">,
    Option<"rowsPerBlock", "rows-per-block", "int64_t", /*default=*/"0",
           "Rows per block of a row kernel with a warp per row (0: 2, or 1 "
           "for an odd number of rows); must divide the rows">,
    Option<"rowThreads", "row-threads", "int64_t", /*default=*/"0",
           "Threads per row of a row kernel (0: automatic, a warp for rows of "
           "up to 32 elements per lane); a power of two from 32 to 512 "
           "(threads past the row's last 16-byte vector are masked). More "
           "than 32 makes a block per row">
  ];
  let dependentDialects = ["::mlir::smap::SMapDialect"];
  let statistics = [
    Statistic<"numGraphsScheduled", "graphs-scheduled", "Graphs given a schedule">,
    Statistic<"numCandidates", "candidates-searched", "Schedule candidates priced by the cost model">,
    Statistic<"numPartitions", "partitions", "Graphs partitioned in two">,
    Statistic<"numSplits", "splits", "Graphs split into a partial and a merge graph">
  ];
}

//===----------------------------------------------------------------------===//
// smap-spatial-slice
//===----------------------------------------------------------------------===//

def SMapSpatialSlicePass : Pass<"smap-spatial-slice"> {
  let summary = "Materialize the spatial part of each graph's schedule";
  let description = [{
    For each `smap.graph` whose `schedule` slices dims spatially, replaces
    the body by an `smap.spatial_slice` over those dims: each block extracts
    its tiles of the graph's inputs and runs a nested `smap.graph` (the SMG
    block) whose members are the original ops restricted to the block's
    tile. Members that lack a sliced dim are recomputed by every block (the
    `parallel_recompute` cost the scheduler counted). The nested graph
    carries the temporal part of the schedule for `smap-temporal-slice`;
    block offsets are passed to it as `index` inputs, and `linalg.index` on
    a sliced loop is shifted by them.

    ```mlir
    %0 = smap.graph(%q = ... ) -> (tensor<512x64xf32>) attributes {schedule =
        #smap.schedule<spatial = [m = 64], temporal = [l = 128], ...>} {
      %r = smap.spatial_slice [#smap.dim<"m", 512, parallel>] tiles [64]
             results [["m", "n"]] : tensor<512x64xf32> {
      ^bb0(%m: index):
        %qt = tensor.extract_slice %q[%m, 0] [64, 64] [1, 1] : ...
        %t = smap.graph(%a = %qt : tensor<64x64xf32>, ..., %o = %m : index)
               -> (tensor<64x64xf32>) attributes {schedule =
               #smap.schedule<spatial = [], temporal = [l = 128], ...>} { ... }
        smap.yield %t : tensor<64x64xf32>
      }
      smap.yield %r : tensor<512x64xf32>
    }
    ```

    A graph without a schedule is left alone with a remark; a schedule whose
    tiles do not divide their dims is an error.
  }];
  let dependentDialects = [
    "::mlir::smap::SMapDialect", "::mlir::tensor::TensorDialect",
    "::mlir::arith::ArithDialect"
  ];
}

//===----------------------------------------------------------------------===//
// smap-temporal-slice
//===----------------------------------------------------------------------===//

def SMapTemporalSlicePass : Pass<"smap-temporal-slice"> {
  let summary = "Materialize the temporal part of each graph's schedule with UTA";
  let description = [{
    For each `smap.graph` (an SMG block after `smap-spatial-slice`, or a
    graph that is not spatially sliced) whose schedule slices a dim `t`
    temporally, rewrites the body into:

    1. the members that do not depend on `t` (computed once);
    2. an `smap.temporal_slice` over `t` whose carried state are the
       partial results of the reductions along `t`. Its `slice` region
       computes one slice of every member indexed by `t`, and one partial
       per reduction (from the combiner's identity); its `update` region is
       the Update-then-Aggregate step;
    3. the members computed from the finished reductions (a mean, a final
       divide), and a second `smap.temporal_slice` (the *final pass*) that
       writes outputs indexed by `t` once the reductions are complete.

    Update functions are synthesized from the member bodies, not matched as
    patterns (broadcast postposition):

    * a reduction of data that does not depend on earlier reductions along
      `t` is accumulated with its combiner;
    * a sum of values carrying a factor `exp(+-c)` of an earlier reduction
      `c` (e.g. `exp(x - max)`) is computed with the running `c`, and its
      state is rescaled by `exp(+-(c_new - c_old))` before the slice's
      partial is added;
    * a factor `g(c)` that multiplies or divides the summed value (e.g.
      `/ sum`, `* rsqrt(mean(x^2))`) is removed inside the loop and applied
      once to the finished sum (the final divide of online softmax);
    * a sum of squares of a value shifted by an earlier reduction
      (`(x - mean)^2`) carries the shifted sum `L` too and is updated with
      the shift formula `Q' = Q + 2 d L + n d^2`, `L' = L + n d`,
      `d = c_old - c_new`; with `c` the running mean (running sums are
      extrapolated to the whole dim) this is Chan/Welford's combination.

    Attention comes out as online softmax: running max (`arith.maximumf`
    from -inf), rescaled running sum and accumulator, one final divide.
    The update of each reduction is the one the SMG's plan of the dim
    recorded (`Analysis/TemporalSlicePlan.h`, made when the dim is
    classified; `--smap-dump-graph` prints it): a chain outside these forms
    is `not_sliceable` already, so no searched schedule slices it. A
    schedule given by the user for such a dim is not sliced: the pass
    leaves the graph unchanged and says why in a remark. The plan also
    checks everything the rewrite writes (each state update and postponed
    factor reads its inputs broadcast over the reduction's result), so the
    pass rewrites the graph in place; a rewrite that fails anyway is an
    error, not a silent fallback.

    A slice size that does not divide the extent reads the last slice at
    `extent - step` and leaves its elements before the nominal offset out
    of every reduction that is not idempotent (docs/Rationale.md, "Ragged
    tiles and slices"). A mask written as index arithmetic that hides whole
    slices of a block (causal attention, sliding windows) bounds the loop
    (`from` / `upto`) when every reduction along `t` combines only its
    identity at the masked elements (`Analysis/MaskPredicate.h`); the
    remark names the bounds, or why a mask skips nothing.

    ```mlir
    // Causal attention in a block of 64 queries at offset %o:
    %r:3 = smap.temporal_slice #smap.dim<"l", 256, temporal> step 32
        upto %end inits(...)   // %end = min(256, roundup(%o + 64, 32))
    ```

    Numerics: reductions are reassociated across slices, rescaled sums
    differ from the unfused result by rounding, and the final-pass outputs
    are recomputed from the finished reductions.
  }];
  let dependentDialects = [
    "::mlir::smap::SMapDialect", "::mlir::tensor::TensorDialect",
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect"
  ];
  let statistics = [
    Statistic<"numSliced", "graphs-sliced", "Graphs sliced temporally">,
    Statistic<"numMaskBounded", "mask-bounded-loops", "Temporal loops whose bounds a mask cuts (hidden slices skipped)">
  ];
}

//===----------------------------------------------------------------------===//
// smap-dump-graph
//===----------------------------------------------------------------------===//

def SMapDumpGraphPass : Pass<"smap-dump-graph"> {
  let summary = "Print the Space-Mapping Graph of every smap.graph as text or DOT";
  let description = [{
    Writes the SMG of every `smap.graph` (analyzing it on the fly) for people
    debugging a fusion decision. `format=text` lists dims with their
    classes, spaces with their dims, and every non-one-to-one mapping, with
    totals per kind. The IR is not changed.

    `format=dot` writes one Graphviz `digraph` (one document, which `dot`
    reads whole) with one cluster per graph, titled with its number and
    function, its node names prefixed by the number (`g0.matmul0`):

    * data spaces (tensors) are ellipses, iteration spaces boxes (dashed for
      relayouts); each lists its dims, colored by class (`parallel` green,
      `parallel_recompute` orange, `temporal` blue, `not_sliceable`
      vermillion, `unclassified` gray), and a space shows its op's source
      location (the whole `file:line:col` in its tooltip);
    * graph outputs have a double border;
    * mappings are labelled edges (`o2a(l)`, `a2o(k, add)`) drawn in the
      color of the dim they map along; one-to-one edges are gray;
    * a legend lists every dim with its extent, class and reason, the
      temporal update functions, the schedule (`#smap.schedule`: tiles,
      slices, grid, threads, strategy, target), what the temporal slicer
      makes of masks (the key slices a causal mask hides), and the totals.

    `hide-o2o-data=true` leaves out the tensors that are produced and read
    one-to-one only (no graph output) and connects their producer to their
    readers, which keeps long elementwise chains readable.

    A graph that is already sliced (after `smap-spatial-slice` or
    `smap-temporal-slice`) is no longer described by the SMG: it is drawn
    from what it records (dims, reasons, schedule) with its slices, and the
    per-block graph each spatial slice holds is drawn inside it, numbered
    after it.

    ```
    spacefusion-opt --smap-form-graphs --smap-set-target=target=sm_90a \
      --smap-analyze --smap-schedule \
      --smap-dump-graph="format=dot output=attention.dot" attention.mlir
    dot -Tsvg attention.dot -o attention.svg
    ```
  }];
  let options = [
    Option<"format", "format", "std::string", /*default=*/"\"text\"",
           "Output format: text or dot">,
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "File to write to ('-': stdout)">,
    Option<"hideOneToOneData", "hide-o2o-data", "bool", /*default=*/"false",
           "DOT: leave out tensors produced and read one-to-one only">
  ];
}

//===----------------------------------------------------------------------===//
// smap-write-kernel-manifest
//===----------------------------------------------------------------------===//

def SMapWriteKernelManifestPass : Pass<"smap-write-kernel-manifest",
                                   "::mlir::ModuleOp"> {
  let summary = "Write the kernels each function launches as JSON";
  let description = [{
    Reads the `smap.kernels` list (`#smap.kernel` records) the GPU
    lowerings leave on each host function (`func.func` or, after the LLVM
    lowering, `llvm.func`) and writes them as JSON, for tools and
    benchmarks that would otherwise parse the IR:

    ```json
    {"functions": [ {"name": "gemm", "kernels": [
      {"strategy": "wgmma_tma", "blocks": 6, "threads": 128,
       "smem": 66560, "scratch": 0,
       "parts": {"stages": 2, "tile_k": 64, "tile_m": 128, "tile_n": 128} }
    ] } ] }
    ```

    The IR is left unchanged. `--spacefusion-lower-gpu=kernel-manifest=F`
    runs it at the end of the GPU pipeline.
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "The JSON file ('-' for stdout)">
  ];
}

//===----------------------------------------------------------------------===//
// smap-dump-kernels
//===----------------------------------------------------------------------===//

def SMapDumpKernelsPass : Pass<"smap-dump-kernels", "::mlir::ModuleOp"> {
  let summary = "Write each GPU kernel's IR, code and record to a directory";
  let description = [{
    For a compiler engineer looking at one kernel, as IREE's
    `--iree-hal-dump-executable-*-to`. Files are named after the kernel
    (`smap-distribute-blocks` names block kernels
    `<function>[_<i>]_<strategy>_<tiles>_<element type>`, row kernels
    `<function>_rows_<element type>`):

    * `stage=smap` (after the spatial and temporal slicers): `<kernel>.smap.mlir`,
      the kernel's graph as sliced (`smap.spatial_slice`, `smap.temporal_slice`
      with its update functions, the schedule), named as the block lowering
      will name the kernel.
    * `stage=gpu` (after the block lowering, before NVVM): `<kernel>.gpu.mlir`,
      the kernel's GPU IR (the `gpu.launch` with its buffers placed and its
      ops distributed over the threads, or the outlined `gpu.module` of a row
      kernel), and `<kernel>.json`: the host function, the source location
      the kernel was built for, the built record (`#smap.kernel`: strategy,
      blocks, threads, shared memory, parts) and the schedule it was
      predicted by (`#smap.schedule`, with its strategy, tiles, stages and
      resources).
    * `stage=llvm` (before `gpu-module-to-binary`, the GPU modules in the
      LLVM dialect): `<kernel>.ll`, the kernel's LLVM IR as the NVVM target's
      serialization receives it (before libdevice is linked and the module
      optimized); with the pipeline's `line-info`, with its `!dbg` lines.
    * `stage=binary` (after `gpu-module-to-binary`): the kernel's code, one
      file per `#gpu.object`: `<kernel>.ptx` (format `isa`), `.cubin`
      (`bin`), `.fatbin` or `.bc` (LLVM bitcode, `offload`).

    `--spacefusion-pipeline="target=sm_90a dump-kernels-to=DIR"` runs all four.
    The IR is left unchanged; a directory that cannot be written is an
    error.
  }];
  let options = [
    Option<"directory", "dir", "std::string", /*default=*/"\"\"",
           "The directory to write to (created if missing)">,
    Option<"stage", "stage", "std::string", /*default=*/"\"gpu\"",
           "What to write: smap (sliced graphs), gpu (IR and records), "
           "llvm (kernels' LLVM IR) or binary (code)">
  ];
}

#endif // SPACEFUSION_DIALECT_SMAP_TRANSFORMS_PASSES_TD
