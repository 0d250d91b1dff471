// AMD GPUs: every part of the programming model compiles for gfx90a and
// gfx942, and each kernel becomes an amdgpu_kernel entry whose name is the
// host's offload entry: spans, a by-value scalar, a const& struct, a kernel
// template, the index API in three dimensions, block-shared arrays, the
// block barrier and atomics (global and shared memory).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clangxx -std=c++20 %plugin -fopenmp -nogpulib --offload-arch=gfx90a,gfx942 -O2 --offload-host-only -S -emit-llvm %s -o %t/host.ll
// RUN: %clangxx -std=c++20 %plugin -fopenmp -nogpulib --offload-arch=gfx90a -O2 --offload-device-only -S -emit-llvm %s -o %t/gfx90a.ll
// RUN: %clangxx -std=c++20 %plugin -fopenmp -nogpulib --offload-arch=gfx942 -O2 --offload-device-only -S -emit-llvm %s -o %t/gfx942.ll
// RUN: cat %t/host.ll %t/gfx90a.ll | FileCheck %s --check-prefixes=CHECK,GFX90A
// RUN: cat %t/host.ll %t/gfx942.ll | FileCheck %s --check-prefixes=CHECK,GFX942

#include <span>

struct params {
  float scale;
  int offset;
};

[[offload::kernel]] void affine(const params &p, std::span<const float> x,
                                std::span<float> y) {
  std::size_t i = ofld::global_id();
  if (i < y.size())
    y[i] = p.scale * x[i] + float(p.offset);
}

template <class T> [[offload::kernel]] void fill(T v, std::span<T> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = v;
}

// Every index function in y and z too.
[[offload::kernel]] void where(std::span<unsigned> out) {
  std::size_t i = ofld::global_id(0) +
                  ofld::global_id(1) * ofld::block_dim(0) * ofld::grid_dim(0);
  if (i < out.size())
    out[i] = ofld::thread_id(2) + ofld::block_id(2) + ofld::block_dim(2) +
             ofld::grid_dim(1) + ofld::grid_dim(2);
}

// A block sums its part in shared memory, then one thread adds it to the
// global total; a shared counter is bumped atomically.
[[offload::kernel]] void block_sum(std::span<const float> x,
                                   std::span<float> total) {
  ofld::shared_array<float, 256> part;
  ofld::shared_array<unsigned, 1> seen;
  unsigned t = ofld::thread_id();
  std::size_t i = ofld::global_id();
  if (t == 0)
    seen[0] = 0;
  part[t] = i < x.size() ? x[i] : 0.0f;
  ofld::sync_threads();
  ofld::atomic_add(&seen[0], 1u);
  for (unsigned s = 128; s > 0; s /= 2) {
    if (t < s)
      part[t] += part[t + s];
    ofld::sync_threads();
  }
  if (t == 0)
    ofld::atomic_add(&total[0], part[0]);
}

void run(const params &p, std::span<const float> x, std::span<float> y,
         std::span<int> n, std::span<double> d, std::span<unsigned> u,
         std::span<float> total) {
  offload(affine, p, x, y);
  offload(fill<int>, 7, n);
  offload(fill<double>, 0.5, d);
  offload(ofld::launch{.grid = {4, 2, 2}, .block = {8, 4, 2}}, where, u);
  offload(ofld::launch{.grid = {16}, .block = {256}}, block_sum, x, total);
}

// The host registers one offload entry per kernel...
// CHECK-DAG: c"[[AFFINE:__ofld__Z6affineRK6paramsSt4spanIKfLm18446744073709551615EES2_IfLm18446744073709551615EE]]\00", section ".llvm.rodata.offloading"
// CHECK-DAG: c"[[FILLI:__ofld__Z4fillIiEvT_St4spanIS0_Lm18446744073709551615EE]]\00", section ".llvm.rodata.offloading"
// CHECK-DAG: c"[[FILLD:__ofld__Z4fillIdEvT_St4spanIS0_Lm18446744073709551615EE]]\00", section ".llvm.rodata.offloading"
// CHECK-DAG: c"[[WHERE:__ofld__Z5whereSt4spanIjLm18446744073709551615EE]]\00", section ".llvm.rodata.offloading"
// CHECK-DAG: c"[[SUM:__ofld__Z9block_sumSt4spanIKfLm18446744073709551615EES_IfLm18446744073709551615EE]]\00", section ".llvm.rodata.offloading"
// ... and the device has an AMDGPU kernel of each name.
// GFX90A: target triple = "amdgcn-amd-amdhsa"
// GFX942: target triple = "amdgcn-amd-amdhsa"
// CHECK-DAG: define weak_odr protected amdgpu_kernel void @[[AFFINE]](ptr noalias
// CHECK-DAG: define weak_odr protected amdgpu_kernel void @[[FILLI]](ptr noalias
// CHECK-DAG: define weak_odr protected amdgpu_kernel void @[[FILLD]](ptr noalias
// CHECK-DAG: define weak_odr protected amdgpu_kernel void @[[WHERE]](ptr noalias
// CHECK-DAG: define weak_odr protected amdgpu_kernel void @[[SUM]](ptr noalias
// Shared arrays live in LDS; the barrier and the atomics are the hardware's.
// CHECK-DAG: = internal unnamed_addr addrspace(3) global [256 x float] undef
// CHECK-DAG: = internal {{(unnamed_addr )?}}addrspace(3) global [1 x i32] undef
// CHECK-DAG: call void @llvm.amdgcn.s.barrier()
// CHECK-DAG: atomicrmw fadd ptr addrspace(1) {{.*}}, float {{.*}} syncscope("agent") monotonic
// CHECK-DAG: atomicrmw add ptr addrspace(3) {{.*}}, i32 1 syncscope("agent") monotonic
// CHECK-DAG: call {{.*}}i32 @llvm.amdgcn.workitem.id.z()
// CHECK-DAG: call {{.*}}i32 @llvm.amdgcn.workgroup.id.y()
// CHECK-DAG: call {{.*}}i32 @llvm.amdgcn.workgroup.id.z()
// GFX90A-DAG: attributes #{{[0-9]+}} = { {{.*}}"target-cpu"="gfx90a"
// GFX942-DAG: attributes #{{[0-9]+}} = { {{.*}}"target-cpu"="gfx942"
