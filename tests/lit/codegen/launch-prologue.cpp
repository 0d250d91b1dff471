// What every NVPTX entry does before its kernel (plugin/CodeGen/LaunchPrologue.h):
// on sm_90 it first waits for the launch before it on the stream
// (griddepcontrol.wait: the runtime lets a launch's blocks start while that
// one finishes); then block (0,0,0) calls the out-of-line mark function with
// the entry's two last slots (the mark word and the launch's number), and
// only thread 0 stores the number, volatile, where the word is not 0 (a
// launch through libomptarget passes 0, 0). The other blocks only test their
// id: no load or store of the mark in their path. sm_80 has no grid
// dependency control, so it marks without waiting; AMDGPU and CPU entries
// have neither. Every optimisation level gets the prologue.
// RUN: %if cuda %{ %clangxx %sm90 --offload-device-only -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,SM90 %}
// RUN: %if cuda %{ %clangxx %sm90 --offload-device-only -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,SM90 %}
// RUN: %if cuda %{ %clangxx -std=c++20 %plugin -fopenmp -nogpulib --offload-arch=sm_80 --cuda-path=%cuda-path --offload-device-only -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,SM80 %}
// RUN: %if cuda %{ %clangxx %sm90 --offload-device-only -O2 -S %s -o - | FileCheck %s --check-prefix=PTX %}
// RUN: %clangxx -std=c++20 %plugin -fopenmp -nogpulib --offload-arch=gfx90a --offload-device-only -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NONE
// RUN: %clangxx %host-target --offload-device-only -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NONE

#include <span>

[[offload::kernel]] void scale(float a, std::span<float> y) {
  std::size_t i = ofld::global_id();
  if (i < y.size())
    y[i] *= a;
}

// The entry's slots: dyn_ptr, a, y's data and count, 3 shape slots, then
// the mark word (%7) and the number (%8). At -O0 the stack slots come first.
// CHECK-LABEL: define weak_odr protected ptx_kernel void @__ofld__Z5scalefSt4spanIfLm18446744073709551615EE(ptr noalias %0, i64 %1, ptr %2, i64 %3, i64 %4, i64 %5, i64 %6, i64 %7, i64 %8)
// SM90: call void @llvm.nvvm.griddepcontrol.wait()
// SM80-NOT: griddepcontrol
// CHECK: [[X:%[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
// CHECK-NEXT: [[Y:%[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
// CHECK-NEXT: [[XY:%[0-9]+]] = or i32 [[X]], [[Y]]
// CHECK-NEXT: [[Z:%[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
// CHECK-NEXT: [[XYZ:%[0-9]+]] = or i32 [[XY]], [[Z]]
// CHECK-NEXT: [[FIRST:%[0-9]+]] = icmp eq i32 [[XYZ]], 0
// CHECK-NEXT: br i1 [[FIRST]], label %[[MARK:[0-9]+]], label %[[KERNEL:[0-9]+]], !prof
// CHECK: {{^}}[[MARK]]:
// CHECK-NEXT: call void @__ofld_mark_launch(i64 %7, i64 %8)
// CHECK-NEXT: br label %[[KERNEL]]
// CHECK: {{^}}[[KERNEL]]:
// CHECK-NOT: __ofld_mark_launch
// CHECK: ret void

// CHECK: define internal void @__ofld_mark_launch(i64 %0, i64 %1) #[[ATTRS:[0-9]+]]
// CHECK-DAG: call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
// CHECK-DAG: call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
// CHECK-DAG: call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
// CHECK-DAG: icmp ne i64 %0, 0
// CHECK: store volatile i32 %{{[0-9]+}}, ptr %{{[0-9]+}}
// CHECK: attributes #[[ATTRS]] = { cold noinline nounwind }

// The PTX has the wait, then the out-of-line call; the store is the callee's.
// PTX-LABEL: .weak .entry __ofld__Z5scalefSt4spanIfLm18446744073709551615EE(
// PTX: griddepcontrol.wait;
// PTX: call.uni __ofld_mark_launch,
// PTX-LABEL: .func __ofld_mark_launch(
// PTX: st.volatile

// NONE-NOT: griddepcontrol
// NONE-NOT: __ofld_mark_launch
