// RUN: spacefusion-opt --split-input-file --verify-diagnostics --smap-distribute-blocks %s

// Work left on the host runs as a loop kernel, which needs static shapes.
func.func @host_compute(%x: memref<64xf32>, %out: memref<?xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{smap-distribute-blocks: 'linalg.generic' in @host_compute is outside every fusion graph and cannot run as a loop kernel: dynamic shape}}
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%out : memref<?xf32>) {
  ^bb0(%o: f32):
    %t = math.tanh %o : f32
    linalg.yield %t : f32
  }
  scf.forall (%blk) in (1) {
    memref.copy %x, %x : memref<64xf32> to memref<64xf32>
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 64, smem = 0, regs = 0, strategy = simt>}
  return
}

// -----

// A body with side effects is not cloned into a kernel.
func.func @host_effects(%x: memref<64xf32>, %out: memref<64xf32>) {
  // expected-error @+1 {{smap-distribute-blocks: 'linalg.generic' in @host_effects is outside every fusion graph and cannot run as a loop kernel: body op 'memref.store' has side effects}}
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : memref<64xf32>) outs(%out : memref<64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %c0 = arith.constant 0 : index
    memref.store %v, %x[%c0] : memref<64xf32>
    linalg.yield %v : f32
  }
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
