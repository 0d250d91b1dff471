// The host lowering of offload(): map types from the parameter types, the
// offload entry, the launch with its shape, the source location.
// RUN: %clangxx %host-target --offload-host-only -O0 -fno-discard-value-names -S -emit-llvm %s -o - \
// RUN:   | FileCheck %s --implicit-check-not=__tgt_register_lib

#include <span>

struct Params {
  float a;
  int n;
};

[[offload::kernel]] void kern(float s, const Params &p, int (&acc)[4],
                              std::span<const double> in, std::span<double> io,
                              [[offload::out]] std::span<float> out) {}

// The entry libomptarget registers once, through clang-linker-wrapper.
// CHECK: @[[REGION:__ofld__Z4kern[A-Za-z0-9_]*.region_id]] = weak constant i8 0
// CHECK: @.offloading.entry.__ofld__Z4kern{{.*}} section "llvm_offload_entries"
// The ident_t names the real file, function and line:column.
// CHECK: c";{{.*}}host-lowering.cpp;use;50;3;;\00"
// Map names carry the argument spelling.
// CHECK-DAG: c";params;{{.*}}host-lowering.cpp;50;3;;\00"
// CHECK-DAG: c";counts;{{.*}}host-lowering.cpp;50;3;;\00"
// Mapped parameters, in order: const& (to), T(&)[4] (tofrom), span<const>
// (to), span (tofrom), out span (from). The scalar travels as a literal.
// CHECK-DAG: @.offload_maptypes{{.*}} = private unnamed_addr constant [5 x i64] [i64 1, i64 3, i64 1, i64 3, i64 2]
// CHECK-DAG: @.offload_maptypes.release{{.*}} = private unnamed_addr constant [5 x i64] zeroinitializer
// Kernel arguments: literal s, then pointers (TARGET_PARAM, 0x20) and the
// spans' literal counts (LITERAL|TARGET_PARAM, 0x120), then 3 shape slots.
// CHECK-DAG: @.offload_kernel_maptypes{{.*}} = private unnamed_addr constant [12 x i64] [i64 288, i64 32, i64 32, i64 32, i64 288, i64 32, i64 288, i64 32, i64 288, i64 288, i64 288, i64 288]

void use(Params &params, int (&counts)[4], std::span<const double> a,
         std::span<double> b, std::span<float> c) {
  // At the call: allocas in the entry block, the shape and the device from
  // the runtime, then the outlined launch now or in the background.
  // CHECK-LABEL: define {{.*}}void @_Z3use
  // CHECK-DAG: %ofld.dims = alloca [6 x i32]
  // CHECK-DAG: %ofld.objs = alloca [6 x ptr]
  // CHECK: %ofld.mode = call i32 @__ofld_launch_shape(
  // CHECK: %ofld.device = call i64 @__ofld_select_device(
  // CHECK: switch i32 %ofld.mode, label %ofld.now [
  // CHECK-NEXT: i32 0, label %ofld.cont
  // CHECK-NEXT: i32 2, label %ofld.async
  // CHECK: ofld.now:
  // CHECK-NEXT: call void @[[BODY:__ofld_launch._Z4kern[^(]*]](ptr %ofld.objs, ptr %ofld.dims, i64 %ofld.device)
  // CHECK: ofld.async:
  // CHECK: call ptr @__ofld_async_alloc(
  // CHECK: call void @__ofld_async_submit(ptr @.ofld.site, ptr @[[BODY]],
  offload(kern, 1.5f, params, counts, a, b, c);
}

// The launch itself: data in, kernel, data back; on failure release without
// copying back and run on the CPU.
// CHECK: define internal void @[[BODY]](ptr %objs, ptr %dims, i64 %device)
// CHECK: ofld.offload:
// CHECK: call void @__tgt_target_data_begin_mapper(ptr @{{[0-9]+}}, i64 %device, i32 5,
// CHECK: %[[RC:.*]] = call i32 @__tgt_target_kernel(ptr @{{[0-9]+}}, i64 %device, i32 %{{.*}}, i32 %{{.*}}, ptr @[[REGION]], ptr %{{.*}})
// CHECK: icmp eq i32 %[[RC]], 0
// CHECK: ofld.launched:
// CHECK: call void @__tgt_target_data_end_mapper(ptr @{{[0-9]+}}, i64 %device, i32 5, {{.*}} @.offload_maptypes,
// CHECK: ofld.failed:
// CHECK: call void @__ofld_launch_failed(
// CHECK: call void @__tgt_target_data_end_mapper({{.*}} @.offload_maptypes.release,
// CHECK: call void @_ZN6__ofld8cpu_grid
