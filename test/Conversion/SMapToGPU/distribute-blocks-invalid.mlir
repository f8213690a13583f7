// RUN: spacefusion-opt --split-input-file --verify-diagnostics --smap-distribute-blocks %s

// Work left on the host would run on device pointers.
func.func @host_compute(%x: memref<64xf32>, %out: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{smap-distribute-blocks: 'linalg.fill' in @host_compute is outside every fusion graph (see the smap-form-graphs remarks); the GPU path compiles fusion graphs only}}
  linalg.fill ins(%zero : f32) outs(%out : memref<64xf32>)
  scf.forall (%blk) in (1) {
    memref.copy %x, %out : memref<64xf32> to memref<64xf32>
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 64, smem = 0, regs = 0, strategy = simt>}
  return
}

// -----

// An op with effects the distribution cannot split across threads.
func.func @unknown_effect(%x: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{smap-distribute-blocks: 'memref.store' inside a block has effects the distribution does not know}}
  scf.forall (%blk) in (1) {
    memref.store %zero, %x[%c0] : memref<64xf32>
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 64, smem = 0, regs = 0, strategy = simt>}
  return
}

// -----

// Block buffers need static sizes to get a place in shared memory.
func.func @dynamic_buffer(%x: memref<64xf32>, %n: index) {
  // expected-error @+1 {{smap-distribute-blocks: a buffer of the block has dynamic sizes or a non-identity layout}}
  scf.forall (%blk) in (1) {
    %tmp = memref.alloc(%n) : memref<?xf32>
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 64, smem = 0, regs = 0, strategy = simt>}
  return
}

// -----

func.func @not_bufferized(%x: tensor<64xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{smap-distribute-blocks: expected a bufferized 1-d scf.forall over a static number of blocks}}
  %r = scf.forall (%blk) in (1) shared_outs(%o = %x) -> (tensor<64xf32>) {
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %x into %o[0] [64] [1] : tensor<64xf32> into tensor<64xf32>
    }
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 64, smem = 0, regs = 0, strategy = simt>}
  return %r : tensor<64xf32>
}

// -----

// A function with no block at all but tensor code left: nothing lowers it.
func.func @no_graph(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  // expected-error @+1 {{smap-distribute-blocks: 'tensor.empty' in @no_graph cannot be compiled for the GPU: dynamic shape; the GPU path compiles fusion graphs only}}
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.copy ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
