// NVPTX entries test their bounds once (plugin/CodeGen/EntryGuards.cpp): the
// stencil's `i >= 1 && i < n - 1 && j >= 1 && j < n - 1` leaves LLVM's
// pipeline as two early exits (`i == 0` alone, then the rest, whose ids are
// read only after the first branch); the plugin moves the second test into
// the first block, so the ids of both dimensions are read there and one
// branch (on the logical or of both) exits. A second block that loads
// (`idx[i] > 0`) is work, not a test: it stays behind its own branch.
// AMDGPU entries are left as they are.
// RUN: %if cuda %{ %clangxx %sm90 --offload-device-only -O2 -S -emit-llvm %s -o - | FileCheck %s %}
// RUN: %clangxx -std=c++20 %plugin -fopenmp -nogpulib --offload-arch=gfx90a --offload-device-only -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=AMD

#include <span>

[[offload::kernel]] void stencil(std::span<const float> a, std::span<float> b,
                                 int n) {
  int i = int(ofld::global_id(1)), j = int(ofld::global_id(0));
  if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)
    b[i * n + j] = a[i * n + j - 1] + a[i * n + j + 1];
}

[[offload::kernel]] void gather(std::span<const int> idx, std::span<int> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size() && idx[i] > 0)
    out[i] = 1;
}

// One block reads both dimensions' ids and branches once, on the logical
// or of the two tests; the body follows with no other branch.
// The launch prologue (launch-prologue.cpp) comes first, then the kernel's
// first block.
// CHECK-LABEL: define weak_odr protected ptx_kernel void @__ofld__Z7stencil
// CHECK: store volatile i32
// CHECK-NEXT: br label %[[FIRST:[0-9]+]]
// CHECK: {{^}}[[FIRST]]:
// CHECK-NOT: {{^[0-9]+:}}
// CHECK-DAG: @llvm.nvvm.read.ptx.sreg.ctaid.y()
// CHECK-DAG: @llvm.nvvm.read.ptx.sreg.ctaid.x()
// CHECK: [[LEAVE:%[0-9]+]] = select i1 %{{[0-9]+}}, i1 true, i1 %{{[0-9]+}}
// CHECK-NEXT: br i1 [[LEAVE]], label %[[EXIT:[0-9]+]], label %[[BODY:[0-9]+]]
// CHECK-NEXT: {{^$}}
// CHECK-NEXT: [[BODY]]:
// CHECK-NOT: br i1
// CHECK: load float
// CHECK: load float
// CHECK: store float
// CHECK: [[EXIT]]:
// CHECK-NEXT: ret void

// The gather's second test loads: it keeps its own branch.
// CHECK-LABEL: define weak_odr protected ptx_kernel void @__ofld__Z6gather
// CHECK: br i1
// CHECK: load i32
// CHECK: br i1
// CHECK: ret void

// AMD-LABEL: define weak_odr protected amdgpu_kernel void @__ofld__Z7stencil
// AMD: br i1
// AMD: br i1
// AMD: load float
// AMD: ret void
