// Dynamic shared memory (ofld::launch's .shared_bytes, ofld::dynamic_shared):
// on GPUs one external array of unknown size in shared memory, as CUDA's
// `extern __shared__`, aligned to 16, with its size read from the hardware
// (%dynamic_smem_size on NVPTX; on AMDGPU the dispatch packet's group segment
// less the static LDS). The host passes the launch's bytes (the dims'
// seventh entry, filled by __ofld_launch_shape) to libomptarget as the
// kernel arguments' DynCGroupMem, which opts in above 48 KiB on CUDA.
// RUN: %if cuda %{ %clangxx %sm90 --offload-device-only -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NVPTX %}
// RUN: %if cuda %{ %clangxx %sm90 --offload-device-only -O2 -S %s -o - | FileCheck %s --check-prefix=PTX %}
// RUN: %clangxx -std=c++20 %plugin -fopenmp -nogpulib --offload-arch=gfx90a --offload-device-only -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=AMDGPU
// RUN: %clangxx %host-target --offload-host-only -O0 -fno-discard-value-names -S -emit-llvm %s -o - | FileCheck %s --check-prefix=HOST
// A kernel that does not use it declares nothing.
// RUN: %if cuda %{ %clangxx %sm90 --offload-device-only -O0 -DNO_USE -S -emit-llvm %s -o - | FileCheck %s --check-prefix=UNUSED %}

#include <span>

#ifndef NO_USE
[[offload::kernel]] void tile(std::span<float> y) {
  std::span<float> s = ofld::dynamic_shared<float>();
  s[ofld::thread_id()] = y[ofld::global_id()];
  ofld::sync_threads();
  y[ofld::global_id()] = s[s.size() - 1 - ofld::thread_id()];
}

void run(std::span<float> y, std::size_t bytes) {
  offload(ofld::launch{.grid = {y.size() / 256},
                       .block = {256},
                       .shared_bytes = bytes},
          tile, y);
}
#else
[[offload::kernel]] void plain(std::span<float> y) {
  y[ofld::global_id()] = 1.0f;
}
#endif

// NVPTX: @__ofld_dynamic_shared = external {{.*}}addrspace(3) global [0 x i8], align 16
// NVPTX: asm "mov.u32 $0, %dynamic_smem_size;"
// NVPTX: addrspacecast (ptr addrspace(3) @__ofld_dynamic_shared to ptr)

// PTX: .extern .shared .align 16 .b8 __ofld_dynamic_shared[];
// PTX: .entry __ofld__Z4tileSt4spanIfLm18446744073709551615EE(
// PTX: mov.u32 %r{{[0-9]+}}, %dynamic_smem_size;
// PTX: st.shared.b32
// PTX: ld.shared.b32

// AMDGPU: @__ofld_dynamic_shared = external {{.*}}addrspace(3) global [0 x i8], align 16
// group_segment_size: byte 28 of hsa_kernel_dispatch_packet_t.
// AMDGPU: [[PACKET:%[0-9]+]] = {{.*}}call {{.*}}ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
// AMDGPU-NEXT: [[FIELD:%[0-9]+]] = getelementptr inbounds nuw i8, ptr addrspace(4) [[PACKET]], i64 28
// AMDGPU-NEXT: [[GROUP:%[0-9]+]] = load i32, ptr addrspace(4) [[FIELD]]
// AMDGPU-NEXT: [[STATIC:%[0-9]+]] = {{.*}}call i32 @llvm.amdgcn.groupstaticsize()
// AMDGPU-NEXT: sub i32 [[GROUP]], [[STATIC]]

// The kernel's slots carry it too (the CPU entry reads it there): packed
// with the dims' eighth entry, 0, into the fourth shape slot.
// HOST: define internal void @__ofld_launch._Z4tile{{[^(]*}}(ptr %objs, ptr %dims, i64 %device)
// HOST: [[SLOT:%[0-9]+]] = getelementptr inbounds [8 x i32], ptr %dims, i32 0, i32 6
// HOST-NEXT: load i32, ptr [[SLOT]]
// HOST-NEXT: zext i32
// HOST: [[AT:%[0-9]+]] = getelementptr inbounds [8 x i32], ptr %dims, i32 0, i32 6
// HOST-NEXT: [[BYTES:%[0-9]+]] = load i32, ptr [[AT]]
// HOST-NEXT: getelementptr inbounds [8 x i32], ptr %dims, i32 0, i32 7
// HOST-NEXT: load i32
// HOST-NEXT: insertvalue [3 x i32]
// HOST: [[FIELD:%[0-9]+]] = getelementptr inbounds nuw %struct.__tgt_kernel_arguments, ptr %kernel_args, i32 0, i32 12
// HOST-NEXT: store i32 [[BYTES]], ptr [[FIELD]]
// HOST-NEXT: call i32 @__tgt_target_kernel(

// UNUSED-NOT: __ofld_dynamic_shared
