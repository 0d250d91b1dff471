// How the plugin tunes GPU device code beyond clang's defaults
// (plugin/CodeGen/DeviceEntries.cpp, DeviceOptLevel.cpp; docs/Performance.md):
//
// 1. Block-shared arrays of 16 bytes or more are 16-byte aligned (the float
//    tile's element would give 4): ptxas -c only knows the declared
//    alignment, and needs 16 to read four floats with one LDS.128. The
//    12-byte array keeps its own alignment, on NVPTX and AMDGPU alike.
// 2. On NVPTX at -O3 the 256-iteration loop over the tile is unrolled 8x
//    (8 divisions in the entry, one per copy of the body), as nvcc's NVVM
//    unrolls it; LLVM's NVPTX default (a quarter of the threshold, given
//    explicitly here) unrolls it 2x, and -O2 (threshold 150) 4x.
// RUN: %if cuda %{ %clangxx %sm90 --offload-device-only -O3 -S -emit-llvm %s -o %t.ll %}
// RUN: %if cuda %{ FileCheck %s --check-prefixes=ALIGN,NV8 < %t.ll %}
// RUN: %if cuda %{ %clangxx %sm90 --offload-device-only -O3 -mllvm -unroll-partial-threshold=75 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NV2 %}
// RUN: %if cuda %{ %clangxx %sm90 --offload-device-only -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NV4 %}
// RUN: %clangxx -std=c++20 %plugin -fopenmp -nogpulib --offload-arch=gfx90a --offload-device-only -O3 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=ALIGN

// ALIGN-DAG: @{{.*}}shared_arrayIfLm64E{{.*}}Storage = internal unnamed_addr addrspace(3) global [64 x float] undef, align 16
// ALIGN-DAG: @{{.*}}shared_arrayIfLm3E{{.*}}Storage = internal unnamed_addr addrspace(3) global [3 x float] undef, align 4

// NV8-LABEL: define weak_odr protected ptx_kernel void @__ofld__Z5accel
// NV8-COUNT-8: fdiv
// NV8-NOT: fdiv
// NV8: ret void
// NV2-LABEL: define weak_odr protected ptx_kernel void @__ofld__Z5accel
// NV2-COUNT-2: fdiv
// NV2-NOT: fdiv
// NV2: ret void
// NV4-LABEL: define weak_odr protected ptx_kernel void @__ofld__Z5accel
// NV4-COUNT-4: fdiv
// NV4-NOT: fdiv
// NV4: ret void

#include <span>

struct alignas(16) body {
  float x, y, z, w;
};

[[offload::kernel]] void accel(std::span<const body> pos,
                               std::span<const float> weights,
                               std::span<float> out) {
  ofld::shared_array<body, 256> tile;
  ofld::shared_array<float, 64> w;
  ofld::shared_array<float, 3> small;
  const unsigned t = ofld::thread_id();
  tile[t] = pos[ofld::global_id()];
  if (t < 64)
    w[t] = weights[t];
  if (t < 3)
    small[t] = 1;
  ofld::sync_threads();
  const body p = tile[t];
  float a = small[t % 3] * w[t % 64];
  for (unsigned k = 0; k < 256; ++k) {
    const body q = tile[k];
    float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
    a += q.w / (dx * dx + dy * dy + dz * dz + 0.01f);
  }
  out[ofld::global_id()] = a;
}

static void launch(std::span<const body> p, std::span<const float> w,
                   std::span<float> o) {
  offload(ofld::launch{.grid = {1}, .block = {256}}, accel, p, w, o);
}
