// The host lowering of offload(): map types from the parameter types, the
// offload entry, the launch with its shape, the source location.
// RUN: %clangxx %host-target --offload-host-only -O0 -fno-discard-value-names -S -emit-llvm %s -o - \
// RUN:   | FileCheck %s --implicit-check-not=__tgt_register_lib \
// RUN:       --implicit-check-not=__tgt_target_data_begin_mapper \
// RUN:       --implicit-check-not=__tgt_target_data_end_mapper
// RUN: %clangxx %host-target --offload-host-only -O0 -fno-discard-value-names -S -emit-llvm %s -o - \
// RUN:   | FileCheck %s --check-prefix=ONE
// RUN: %clangxx %host-target --offload-host-only -O0 -fno-discard-value-names -S -emit-llvm %s -o - \
// RUN:   | FileCheck %s --check-prefix=SCALARS
// RUN: %clangxx %host-target --offload-host-only -O0 -fno-discard-value-names -S -emit-llvm %s -o - \
// RUN:   | FileCheck %s --check-prefix=EXTENT
// RUN: %clangxx %host-target --offload-host-only -O2 -S -emit-llvm %s -o - \
// RUN:   | FileCheck %s --check-prefix=OPT

#include <span>

struct Params {
  float a;
  int n;
};

[[offload::kernel]] void kern(float s, const Params &p, int (&acc)[4],
                              std::span<const double> in, std::span<double> io,
                              [[offload::out]] std::span<float> out) {
  std::size_t i = ofld::global_id();
  if (i < in.size() - 1 && i < std::size_t(p.n))
    io[i] = in[i] * s;
}

// Its bounds check, as the extent function computes it from the launch's
// argument pointers: min(in.size() - 1, p.n), where in's size is the second
// word of the span object (offset 8) and p.n the int at offset 4 of Params;
// dimensions 1 and 2 are not indexed (-1). Weak: one per program.
// EXTENT-LABEL: define weak_odr void @__ofld__Z4kern{{[A-Za-z0-9_]*}}.extent(ptr %0, ptr %1)
// EXTENT: %[[IN:[0-9]+]] = getelementptr inbounds ptr, ptr %0, i64 3
// EXTENT: %[[INOBJ:[0-9]+]] = load ptr, ptr %[[IN]]
// EXTENT: %[[SIZEAT:[0-9]+]] = getelementptr inbounds i8, ptr %[[INOBJ]], i64 8
// EXTENT: %[[SIZE:[0-9]+]] = load i64, ptr %[[SIZEAT]]
// EXTENT: %[[LESS:[0-9]+]] = sub i64 %[[SIZE]], 1
// EXTENT: %[[P:[0-9]+]] = getelementptr inbounds ptr, ptr %0, i64 1
// EXTENT: %[[POBJ:[0-9]+]] = load ptr, ptr %[[P]]
// EXTENT: %[[NAT:[0-9]+]] = getelementptr inbounds i8, ptr %[[POBJ]], i64 4
// EXTENT: %[[N32:[0-9]+]] = load i32, ptr %[[NAT]]
// EXTENT: %[[N:[0-9]+]] = sext i32 %[[N32]] to i64
// EXTENT: %[[MIN:[0-9]+]] = call i64 @llvm.smin.i64(i64 %[[LESS]], i64 %[[N]])
// EXTENT: store i64 %[[MIN]], ptr %1
// EXTENT: store i64 -1, ptr %{{[0-9]+}}
// EXTENT: store i64 -1, ptr %{{[0-9]+}}
// EXTENT-NEXT: ret void

// The entry libomptarget registers once, through clang-linker-wrapper.
// CHECK: @[[REGION:__ofld__Z4kern[A-Za-z0-9_]*.region_id]] = weak constant i8 0
// CHECK: @.offloading.entry.__ofld__Z4kern{{.*}} section "llvm_offload_entries"
// The ident_t names the real file, function and line:column.
// CHECK: c";{{.*}}host-lowering.cpp;use;105;3;;\00"
// Map names carry the argument spelling.
// CHECK-DAG: c";params;{{.*}}host-lowering.cpp;105;3;;\00"
// CHECK-DAG: c";counts;{{.*}}host-lowering.cpp;105;3;;\00"
// One argument array for __tgt_target_kernel: first the mapped ranges with
// their transfer bits only, in parameter order: const& (to), T(&)[4]
// (tofrom), span<const> (to), span (tofrom), out span (from); then the
// kernel's slots: literal s, pointers (TARGET_PARAM, 0x20) and the spans'
// literal counts (LITERAL|TARGET_PARAM, 0x120), then 4 shape and 2 mark slots.
// CHECK-DAG: @[[TYPES:\.offload_maptypes[.0-9]*]] = private unnamed_addr constant [20 x i64] [i64 1, i64 3, i64 1, i64 3, i64 2, i64 288, i64 32, i64 32, i64 32, i64 288, i64 32, i64 288, i64 32, i64 288, i64 288, i64 288, i64 288, i64 288, i64 288, i64 288]
// The map names follow the same order (the shape and mark are "launch").
// CHECK-DAG: @[[NAMES:\.offload_mapnames[.0-9]*]] = private constant [20 x ptr]

void use(Params &params, int (&counts)[4], std::span<const double> a,
         std::span<double> b, std::span<float> c) {
  // At the call: allocas in the entry block; the device, then the extents
  // of the kernel's bounds check and the shape checked against its limits;
  // then the runtime queues the launch on its
  // stream where all of its data is on the device already (1), or the
  // outlined launch runs now (mode 1) or on the queue's worker (mode 2).
  // The sequence is in a function of the site's own, which the caller
  // calls with the parameter objects' addresses and the shape (none here).
  // CHECK-LABEL: define {{.*}}void @_Z3use
  // CHECK: %ofld.site.objs = alloca [6 x ptr]
  // CHECK: call void @[[SITE:__ofld_site\._Z4kern[^(]*]](ptr %ofld.site.objs, ptr null)
  // CHECK: define internal void @[[SITE]](ptr %objs, ptr %launch) [[SITEATTRS:#[0-9]+]]
  // CHECK-DAG: %ofld.dims = alloca [8 x i32]
  // CHECK-DAG: %ofld.objs = alloca [6 x ptr]
  // CHECK-DAG: %ofld.extent = alloca [3 x i64]
  // CHECK: %ofld.device = call i64 @__ofld_select_device(
  // CHECK: call void @__ofld__Z4kern{{[A-Za-z0-9_]*}}.extent(ptr %ofld.objs, ptr %ofld.extent)
  // CHECK: %ofld.mode = call i32 @__ofld_launch_shape(ptr @.ofld.site{{[.0-9]*}}, ptr null, ptr %ofld.extent, i64 %ofld.device, ptr @[[REGION]], ptr %ofld.dims)
  // CHECK: br i1 %{{.*}}, label %ofld.cont, label %ofld.enqueue
  // CHECK: ofld.enqueue:
  // CHECK: %ofld.queued = call i32 @__ofld_enqueue(ptr @.ofld.site{{[.0-9]*}}, ptr null, ptr @[[REGION]], i64 %ofld.device, ptr %ofld.dims, i32 %ofld.mode, i32 5, i32 20, ptr %.offload_ptrs{{[.0-9]*}}, ptr %.offload_sizes{{[.0-9]*}}, ptr @.offload_maptypes{{[.0-9]*}}, ptr @.offload_mapnames{{[.0-9]*}})
  // CHECK: switch i32 %ofld.queued, label %ofld.cont [
  // CHECK-NEXT: i32 0, label %ofld.now
  // CHECK: ofld.now:
  // CHECK: br i1 %{{.*}}, label %ofld.async, label %ofld.sync
  // CHECK: ofld.sync:
  // The by-value float is read once, here: the CPU's grid runs the body per
  // thread, and the argument may name memory the kernel writes.
  // CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 16 %ofld.value, ptr align 1 %{{[0-9]+}}, i64 4, i1 false)
  // CHECK-NEXT: %[[SLOT:[0-9]+]] = getelementptr inbounds [6 x ptr], ptr %ofld.objs, i32 0, i32 0
  // CHECK-NEXT: store ptr %ofld.value, ptr %[[SLOT]]
  // CHECK-NEXT: call void @[[BODY:__ofld_launch._Z4kern[^(]*]](ptr %ofld.objs, ptr %ofld.dims, i64 %ofld.device)
  // CHECK: ofld.async:
  // CHECK: call ptr @__ofld_async_alloc(
  // CHECK: call void @__ofld_async_submit(ptr @.ofld.site{{[.0-9]*}}, ptr null, ptr @[[BODY]],
  offload(kern, 1.5f, params, counts, a, b, c);
}

// The launch itself: the runtime plans the five ranges (they may alias),
// then one call maps, launches, copies back and synchronises; on failure the
// plan is dropped without copying back and the kernel runs on the CPU.
// CHECK: define internal void @[[BODY]](ptr %objs, ptr %dims, i64 %device) [[BODYATTRS:#[0-9]+]]
// CHECK: ofld.offload:
// CHECK: call void @llvm.memcpy{{.*}}(ptr {{.*}}%.offload_maptypes.plan, ptr {{.*}}@[[TYPES]], i64 160,
// CHECK: %ofld.plan = call ptr @__ofld_plan_maps(ptr @.ofld.site{{[.0-9]*}}, i64 %device, i32 5, i32 20, ptr %.offload_ptrs, ptr %.offload_sizes, ptr %.offload_maptypes.plan, ptr @[[NAMES]])
// CHECK: store i32 3, ptr
// CHECK: store i32 20, ptr
// CHECK: %[[RC:.*]] = call i32 @__tgt_target_kernel(ptr @{{[0-9]+}}, i64 %device, i32 %{{.*}}, i32 %{{.*}}, ptr @[[REGION]], ptr %{{.*}})
// CHECK: icmp eq i32 %[[RC]], 0
// CHECK: ofld.launched:
// CHECK-NEXT: call void @__ofld_finish_maps(ptr %ofld.plan, i32 1)
// CHECK: ofld.failed:
// CHECK-NEXT: call void @__ofld_launch_failed(ptr @.ofld.site{{[.0-9]*}}, i64 %device, i32 %[[RC]], i32 5, ptr %.offload_ptrs, ptr %.offload_sizes)
// CHECK-NEXT: call void @__ofld_finish_maps(ptr %ofld.plan, i32 0)
// CHECK-NEXT: call void @_ZN6__ofld8cpu_grid
// Both run once per launch: -O2 leaves them alone.
// CHECK-DAG: attributes [[SITEATTRS]] = { noinline nounwind optnone
// CHECK-DAG: attributes [[BODYATTRS]] = { noinline nounwind optnone

// At -O2 the caller keeps one call per launch (the constant shape argument
// may be propagated into the site function), the site function and the body
// are not optimised.
// OPT-LABEL: define {{.*}}void @_Z3use
// OPT-NOT: __ofld_select_device
// OPT: call {{.*}}void @[[SITE:__ofld_site\._Z4kern[^(]*]](ptr
// OPT-NOT: __ofld_select_device
// OPT: ret void
// OPT: define internal {{.*}}void @[[SITE]]({{.*}}) {{.*}}[[ATTRS:#[0-9]+]] {
// OPT: call i64 @__ofld_select_device(
// OPT: call void @__ofld_launch._Z4kern
// OPT: attributes [[ATTRS]] = { noinline nounwind optnone

// One small mapping of a size known here: still planned, since the runtime
// may move it to its argument arena (pinned memory the device holds), with
// the kernel's pointer slots among the 8 entries it may rewrite.
[[offload::kernel]] void one(int (&acc)[4]) {}
void use_one(int (&counts)[4]) { offload(one, counts); }
// ONE: define internal void @__ofld_launch._Z3oneRA4_i(
// ONE-NOT: _mapper
// ONE: %ofld.plan = call ptr @__ofld_plan_maps(ptr @.ofld.site{{[.0-9]*}}, i64 %device, i32 1, i32 8,
// ONE: call i32 @__tgt_target_kernel(ptr @{{[0-9]+}}, i64 %device, i32 %{{.*}}, i32 %{{.*}}, ptr @{{.*}}, ptr %{{.*}})
// ONE: call void @__ofld_finish_maps(ptr %ofld.plan, i32 1)
// ONE: ofld.failed:

// Scalars only: nothing to map, so nothing to plan; the sizes are constants.
[[offload::kernel]] void scalars(int n, float x) {}
void use_scalars() { offload(scalars, 3, 2.0f); }
// SCALARS: define internal void @__ofld_launch._Z7scalarsif(
// SCALARS-NOT: __ofld_plan_maps
// SCALARS-NOT: _mapper
// SCALARS: call i32 @__tgt_target_kernel(ptr @{{[0-9]+}}, i64 %device, i32 %{{.*}}, i32 %{{.*}}, ptr @{{.*}}, ptr %{{.*}})
// SCALARS-NOT: __ofld_finish_maps
// SCALARS: ret void
