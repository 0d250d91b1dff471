// Device side: each kernel (template specialisations too) becomes a bare
// entry whose name matches the host's offload entry, with the implicit
// dyn_ptr first, one slot per scalar or reference, two per span, four for
// the launch shape (grid, block, dynamic shared memory) and two for the
// launch mark (launch-prologue.cpp).
// RUN: %if cuda %{ %clangxx %sm90 --offload-device-only -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NVPTX %}
// RUN: %clangxx -std=c++20 %plugin -fopenmp -nogpulib --offload-arch=gfx90a --offload-device-only -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=AMDGPU
// RUN: %clangxx %host-target --offload-device-only -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=CPU

#include <span>

[[offload::kernel]] void saxpy(float a, std::span<const float> x,
                               std::span<float> y) {
  std::size_t i = ofld::global_id();
  if (i < y.size())
    y[i] = a * x[i] + y[i];
}

template <class T> [[offload::kernel]] void fill(T v, std::span<T> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = v;
}

static void launch(std::span<const float> x, std::span<float> y,
                   std::span<int> z) {
  offload(saxpy, 2.0f, x, y);
  offload(fill<int>, 7, z);
}

// NVPTX: define weak_odr protected ptx_kernel void @__ofld__Z5saxpyfSt4spanIKfLm18446744073709551615EES_IfLm18446744073709551615EE(ptr noalias %0, i64 %1, ptr %2, i64 %3, ptr %4, i64 %5, i64 %6, i64 %7, i64 %8, i64 %9, i64 %10, i64 %11)
// NVPTX: define weak_odr protected ptx_kernel void @__ofld__Z4fillIiEvT_St4spanIS0_Lm18446744073709551615EE(ptr noalias %0, i64 %1, ptr %2, i64 %3, i64 %4, i64 %5, i64 %6, i64 %7, i64 %8, i64 %9)
// AMDGPU: define weak_odr protected amdgpu_kernel void @__ofld__Z5saxpyfSt4spanIKfLm18446744073709551615EES_IfLm18446744073709551615EE(ptr noalias
// AMDGPU: define weak_odr protected amdgpu_kernel void @__ofld__Z4fillIiEvT_St4spanIS0_Lm18446744073709551615EE(ptr noalias
// The host offload target runs the whole grid through the CPU emulation.
// CPU: define weak_odr protected void @__ofld__Z5saxpyfSt4spanIKfLm18446744073709551615EES_IfLm18446744073709551615EE(ptr noalias
// CPU: call void @_ZN6__ofld8cpu_gridIJfSt4spanIKfLm18446744073709551615EES1_IfLm18446744073709551615EEEEEvPKjPFvDpT_EPPv(
