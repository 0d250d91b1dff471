// What every NVPTX entry does before its kernel (plugin/CodeGen/LaunchPrologue.h):
// on sm_90 it first waits for the launch before it on the stream
// (griddepcontrol.wait: the runtime lets a launch's blocks start while that
// one finishes); then, in block (0,0,0) and where the launch passed a mark
// word (the entry's second-last slot; a launch through libomptarget passes
// 0), a GPU-scope fence and a volatile store of the launch's number (the
// last slot) to the word. The fence is what keeps ptxas from predicating the
// store into every warp: the PTX keeps the branch. sm_80 has no grid
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

// The entry's slots: dyn_ptr, a, y's data and count, 4 shape slots, then
// the mark word (%8) and the number (%9). At -O0 the stack slots come first.
// CHECK-LABEL: define weak_odr protected ptx_kernel void @__ofld__Z5scalefSt4spanIfLm18446744073709551615EE(ptr noalias %0, i64 %1, ptr %2, i64 %3, i64 %4, i64 %5, i64 %6, i64 %7, i64 %8, i64 %9)
// SM90: call void @llvm.nvvm.griddepcontrol.wait()
// SM80-NOT: griddepcontrol
// CHECK: [[X:%[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
// CHECK-NEXT: [[Y:%[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
// CHECK-NEXT: [[XY:%[0-9]+]] = or i32 [[X]], [[Y]]
// CHECK-NEXT: [[Z:%[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
// CHECK-NEXT: [[XYZ:%[0-9]+]] = or i32 [[XY]], [[Z]]
// CHECK-NEXT: [[ISFIRST:%[0-9]+]] = icmp eq i32 [[XYZ]], 0
// CHECK-NEXT: br i1 [[ISFIRST]], label %[[FIRST:[0-9]+]], label %[[KERNEL:[0-9]+]], !prof
// CHECK: {{^}}[[FIRST]]:
// CHECK-NEXT: [[WORD:%[0-9]+]] = icmp ne i64 %8, 0
// CHECK-NEXT: br i1 [[WORD]], label %[[MARK:[0-9]+]], label %[[KERNEL]]
// CHECK: {{^}}[[MARK]]:
// CHECK-NEXT: fence syncscope("device") acq_rel
// CHECK-NEXT: [[NUMBER:%[0-9]+]] = trunc i64 %9 to i32
// CHECK-NEXT: [[AT:%[0-9]+]] = inttoptr i64 %8 to ptr
// CHECK-NEXT: store volatile i32 [[NUMBER]], ptr [[AT]]
// CHECK-NEXT: br label %[[KERNEL]]
// CHECK: {{^}}[[KERNEL]]:
// CHECK-NOT: store volatile
// CHECK: ret void

// In the assembly, the wait comes first, then a branch around the fence and
// the store.
// PTX-LABEL: .weak .entry __ofld__Z5scalefSt4spanIfLm18446744073709551615EE(
// PTX: griddepcontrol.wait;
// PTX: @%p{{[0-9]+}} bra
// PTX: fence.acq_rel.gpu;
// PTX-NEXT: st.volatile

// NONE-NOT: griddepcontrol
// NONE-NOT: fence
// NONE-NOT: store volatile
