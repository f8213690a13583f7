// The run path of the GPU issue: MLIR's gpu dialect, compiled to a cubin for
// sm_90a and to host code that calls the mgpu* ABI, linked with
// libspacefusion_cuda_runtime.so, run on the GPU. A second entry point asks
// for more dynamic shared memory than a block may have: the runtime must name
// the kernel and the CUDA error instead of failing silently.
//
// RUN: mlir-opt %s --gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90a cubin-features=+ptx80 cubin-format=bin" \
// RUN:   | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: clang -O2 -shared -fPIC %t.ll -o %t.so %spacefusion_runtime_link
// RUN: clang -O2 %S/runtime-vecadd-main.c -I%spacefusion_include %t.so %spacefusion_runtime_link -o %t.exe
// RUN: %t.exe | FileCheck %s

// CHECK: device found: yes
// CHECK: vecadd: 1048576 elements, max error 0
// CHECK: vecadd: runtime error code 0
// CHECK: buffer cache: freed buffer reused: yes, live buffers distinct: yes
// CHECK: buffer cache: runtime error code 0
// CHECK: vecadd_too_much_smem: runtime error: launching kernel 'vecadd_too_much_smem_kernel' with 300000 bytes of dynamic shared memory: cuFuncSetAttribute failed: CUDA_ERROR_INVALID_VALUE (invalid argument)

func.func @vecadd(%a: memref<1048576xf32>, %b: memref<1048576xf32>, %c: memref<1048576xf32>)
    attributes {llvm.emit_c_interface} {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %c4096 = arith.constant 4096 : index
  %t0 = gpu.wait async
  %da, %t1 = gpu.alloc async [%t0] () : memref<1048576xf32>
  %db, %t2 = gpu.alloc async [%t1] () : memref<1048576xf32>
  %dc, %t3 = gpu.alloc async [%t2] () : memref<1048576xf32>
  %t4 = gpu.memcpy async [%t3] %da, %a : memref<1048576xf32>, memref<1048576xf32>
  %t5 = gpu.memcpy async [%t4] %db, %b : memref<1048576xf32>, memref<1048576xf32>
  %t6 = gpu.launch async [%t5] blocks(%bx, %by, %bz) in (%gx = %c4096, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %i0 = arith.muli %bx, %c256 : index
    %i = arith.addi %i0, %tx : index
    %x = memref.load %da[%i] : memref<1048576xf32>
    %y = memref.load %db[%i] : memref<1048576xf32>
    %z = arith.addf %x, %y : f32
    memref.store %z, %dc[%i] : memref<1048576xf32>
    gpu.terminator
  }
  %t7 = gpu.memcpy async [%t6] %c, %dc : memref<1048576xf32>, memref<1048576xf32>
  %t8 = gpu.dealloc async [%t7] %da : memref<1048576xf32>
  %t9 = gpu.dealloc async [%t8] %db : memref<1048576xf32>
  %t10 = gpu.dealloc async [%t9] %dc : memref<1048576xf32>
  gpu.wait [%t10]
  return
}

func.func @vecadd_too_much_smem(%a: memref<1024xf32>) attributes {llvm.emit_c_interface} {
  %c1 = arith.constant 1 : index
  %smem = arith.constant 300000 : i32
  %t0 = gpu.wait async
  %t1 = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %smem {
    gpu.terminator
  }
  gpu.wait [%t1]
  return
}
