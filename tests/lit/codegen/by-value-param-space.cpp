// By-value parameters larger than a slot (issue 29): on GPUs the entry takes
// the object as a byval parameter, so it lies in the kernel's parameter
// space (CUDA's constant bank) as CUDA passes a struct by value; the host
// passes its bytes as literal slots at the same offsets. Far (68 bytes) is
// ceil(68 / 8) = 9 slots: the byval type is [9 x i64], 8-aligned. Huge
// (8000 bytes) would take the slots past the 4 KiB every GPU offers, so it
// stays a device copy behind a pointer (read in place). The CPU entry takes
// the 9 slots as i64 and rebuilds the object on its stack.
// RUN: %if cuda %{ %clangxx %sm90 --offload-device-only -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NVPTX %}
// RUN: %if cuda %{ %clangxx %sm90 --offload-device-only -O2 -S %s -o - | FileCheck %s --check-prefix=PTX %}
// RUN: %clangxx -std=c++20 %plugin -fopenmp -nogpulib --offload-arch=gfx90a --offload-device-only -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=AMDGPU
// RUN: %clangxx %host-target --offload-device-only -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=CPU
// RUN: %clangxx %host-target --offload-host-only -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=HOST

#include <span>

struct Far {
  float v[17];
};
struct Huge {
  double v[1000];
};

[[offload::kernel]] void flux(Far f, std::span<float> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = f.v[i % 17] * 2.0f;
}

[[offload::kernel]] void table(Huge h, std::span<double> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = h.v[i % 1000];
}

void launch(const Far &f, const Huge &h, std::span<float> a,
            std::span<double> b) {
  offload(flux, f, a);
  offload(table, h, b);
}

// NVPTX: define weak_odr protected ptx_kernel void @__ofld__Z4flux3FarSt4spanIfLm18446744073709551615EE(ptr noalias %0, ptr noalias readonly byval([9 x i64]) align 8 %1, ptr %2, i64 %3,
// NVPTX: define weak_odr protected ptx_kernel void @__ofld__Z5table4HugeSt4spanIdLm18446744073709551615EE(ptr noalias %0, ptr noalias readonly dereferenceable(8000) %1, ptr %2, i64 %3,
// The object is read from parameter space, not through a global pointer.
// PTX-LABEL: .entry __ofld__Z4flux3FarSt4spanIfLm18446744073709551615EE(
// PTX: .param .align 8 .b8 __ofld__Z4flux3FarSt4spanIfLm18446744073709551615EE_param_1[72]
// PTX-NOT: ld.global
// PTX: ld.param.b32
// PTX-NOT: ld.global.nc.b32
// PTX-LABEL: .entry __ofld__Z5table
// AMDGPU kernels take no byval (the verifier refuses it): byref in the
// constant address space, in the kernarg segment at the same offset.
// AMDGPU: define weak_odr protected amdgpu_kernel void @__ofld__Z4flux3FarSt4spanIfLm18446744073709551615EE(ptr noalias %0, ptr addrspace(4) noalias readonly byref([9 x i64]) align 8 %1,
// CPU: define weak_odr protected void @__ofld__Z4flux3FarSt4spanIfLm18446744073709551615EE(ptr noalias %0, i64 %1, i64 %2, i64 %3, i64 %4, i64 %5, i64 %6, i64 %7, i64 %8, i64 %9, ptr %10, i64 %11,
// The host: for flux, the span's range (3: to and from), then nine literal
// slots (288 = 0x120: literal | target param) for f, the span's pointer
// (32) and count, the shape (4) and the mark (2); for table, h's device copy
// (1: to) first.
// HOST: @.offload_maptypes{{.*}} = private unnamed_addr constant [11 x i64] [i64 1, i64 3, i64 32, i64 32, i64 288, i64 288, i64 288, i64 288, i64 288, i64 288, i64 288]
// HOST: @.offload_maptypes{{.*}} = private unnamed_addr constant [18 x i64] [i64 3, i64 288, i64 288, i64 288, i64 288, i64 288, i64 288, i64 288, i64 288, i64 288, i64 32, i64 288, i64 288, i64 288, i64 288, i64 288, i64 288, i64 288]
