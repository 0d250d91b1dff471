// Consecutive offload() statements that share arguments keep them on the
// device: the first call of the group maps them, the last copies them back.
// RUN: %clangxx %host-target --offload-host-only -O0 -fno-discard-value-names -S -emit-llvm %s -o - \
// RUN:   | FileCheck %s --implicit-check-not=error:

#include <span>
#include <vector>

[[offload::kernel]] void scale(std::span<float> v, float a) {}
[[offload::kernel]] void shift(std::span<float> v, float b) {}
[[offload::kernel]] void total(std::span<const float> v, float &out) {}
[[offload::kernel]] void fill([[offload::out]] std::span<float> v) {}
[[offload::kernel]] void copy(std::span<const float> in, std::span<float> out) {}

// v is held from the first launch to the third: in (the first use reads
// it) and back (a use writes it), once. `sum` is used once: not held.
// CHECK-LABEL: define {{.*}}void @_Z8pipelineRSt6vectorIfSaIfEERff(
// CHECK: %ofld.group.types = alloca [1 x i64]
// CHECK: store i64 3, ptr %{{.*}}
// CHECK: %ofld.group = call i64 @__ofld_group_begin(ptr @.ofld.site{{[.0-9]*}}, i32 1, ptr %ofld.group.ptrs, ptr %ofld.group.sizes, ptr %ofld.group.types, ptr @.offload_group_mapnames{{[.0-9]*}})
// CHECK-NEXT: store i64 %ofld.group, ptr %ofld.group.device
// CHECK: call i32 @__ofld_launch_shape(
// CHECK: call void @__ofld_launch._Z5scale
// CHECK-NOT: __ofld_group_
// CHECK: call void @__ofld_launch._Z5shift
// CHECK-NOT: __ofld_group_
// CHECK: call void @__ofld_launch._Z5total
// CHECK: ofld.cont{{[0-9]*}}:
// CHECK-NEXT: %[[DEV:.*]] = load i64, ptr %ofld.group.device
// CHECK-NEXT: call void @__ofld_group_end(i64 %[[DEV]], i32 1, ptr %ofld.group.ptrs, ptr %ofld.group.sizes, ptr %ofld.group.types)
// CHECK: ret void
void pipeline(std::vector<float> &v, float &sum, float a) {
  offload(scale, v, a);
  offload(shift, v, 1.0f);
  offload(total, v, sum);
}

// Written first by an [[offload::out]] parameter: nothing to copy in.
// CHECK-LABEL: define {{.*}}void @_Z7out_newRSt6vectorIfSaIfEE(
// CHECK: store i64 2, ptr %{{.*}}
// CHECK: call i64 @__ofld_group_begin(
// CHECK: call void @__ofld_group_end(
void out_new(std::vector<float> &v) {
  offload(fill, v);
  offload(scale, v, 2.0f);
}

// Only read: in once, never back.
// CHECK-LABEL: define {{.*}}void @_Z9read_onlyRSt6vectorIfSaIfEES2_S2_(
// CHECK: store i64 1, ptr %{{.*}}
// CHECK: call i64 @__ofld_group_begin(ptr @.ofld.site{{[.0-9]*}}, i32 1,
void read_only(std::vector<float> &in, std::vector<float> &a,
               std::vector<float> &b) {
  offload(copy, in, a);
  offload(copy, in, b);
}

// No group: host code between the launches, a launch configuration that
// names a device, a by-value argument that reads held data, a span
// variable, one launch.
// CHECK-LABEL: define {{.*}}void @_Z9separatedRSt6vectorIfSaIfEESt4spanIfLm18446744073709551615EE(
// CHECK-NOT: __ofld_group_
// CHECK: ret void
void separated(std::vector<float> &v, std::span<float> s) {
  offload(scale, v, 2.0f);
  v[0] = 1;
  offload(shift, v, 1.0f);
  offload(ofld::launch{.grid = {4}, .block = {64}, .device = 0}, scale, v,
          2.0f);
  offload(shift, v, 1.0f);
  offload(scale, s, 2.0f);
  offload(shift, s, 1.0f);
}

// Launches with a launch configuration join a group where it keeps the
// default device, queue and waiting; each launch still gets its own shape
// (a non-null ofld::launch for the device, the shape and the launch).
// CHECK-LABEL: define {{.*}}void @_Z6shapedRSt6vectorIfSaIfEEi(
// CHECK: call i64 @__ofld_group_begin(ptr @.ofld.site{{[.0-9]*}}, i32 1,
// CHECK: call i64 @__ofld_select_device(ptr @.ofld.site{{[.0-9]*}}, ptr %[[S1:[^ )]+]])
// CHECK: call i32 @__ofld_launch_shape(ptr @.ofld.site{{[.0-9]*}}, ptr %[[S1]],
// CHECK: call i32 @__ofld_enqueue(ptr @.ofld.site{{[.0-9]*}}, ptr %[[S1]],
// CHECK-NOT: __ofld_group_
// CHECK: call i64 @__ofld_select_device(ptr @.ofld.site{{[.0-9]*}}, ptr %[[S2:[^ )]+]])
// CHECK: call i32 @__ofld_launch_shape(ptr @.ofld.site{{[.0-9]*}}, ptr %[[S2]],
// CHECK-NOT: __ofld_group_
// CHECK: call void @__ofld_launch._Z5shift
// CHECK-NOT: __ofld_group_
// CHECK: call void @__ofld_group_end(i64 %{{.*}}, i32 1,
// CHECK: ret void
void shaped(std::vector<float> &v, int n) {
  offload(ofld::launch{.grid = {(n + 255) / 256}, .block = {256}}, scale, v,
          2.0f);
  offload(ofld::launch{.grid = {(n + 255) / 256}, .block = {256},
                       .shared_bytes = 64 * sizeof(float)},
          shift, v, 1.0f);
}

// A const shape variable (its initialiser leaves the device unset), and a
// launch without a configuration between: one group of three.
// CHECK-LABEL: define {{.*}}void @_Z14shape_variableRSt6vectorIfSaIfEEi(
// CHECK: call i64 @__ofld_group_begin(ptr @.ofld.site{{[.0-9]*}}, i32 1,
// CHECK-NOT: __ofld_group_
// CHECK: call void @__ofld_launch._Z5scale
// CHECK-NOT: __ofld_group_
// CHECK: call void @__ofld_launch._Z5shift
// CHECK-NOT: __ofld_group_
// CHECK: call void @__ofld_launch._Z5scale
// CHECK-NOT: __ofld_group_
// CHECK: call void @__ofld_group_end(i64 %{{.*}}, i32 1,
// CHECK: ret void
void shape_variable(std::vector<float> &v, int n) {
  const ofld::launch shape = {.grid = {(n + 127) / 128}, .block = {128}};
  offload(shape, scale, v, 2.0f);
  offload(shift, v, 1.0f);
  offload(shape, scale, v, 2.0f);
}

// No group: a device each (even the same number), a queue, `.nowait`, a
// shape variable that is not const (or whose initialiser names a device),
// a grid that reads data a call of the group maps (`blocks`: held, its host
// copy would be stale), a grid computed by a call.
[[offload::kernel]] void count(std::span<const float> v, int &blocks) {}
[[offload::kernel]] void use(std::span<float> v, const int &blocks) {}
// CHECK-LABEL: define {{.*}}void @_Z8unjoinedRSt6vectorIfSaIfEEiRN4ofld5queueE(
// CHECK-NOT: __ofld_group_
// CHECK: ret void
void unjoined(std::vector<float> &v, int d, ofld::queue &q) {
  offload(ofld::launch{.device = 0}, scale, v, 2.0f);
  offload(ofld::launch{.device = d}, shift, v, 1.0f);
  offload(ofld::launch{.device = 0}, scale, v, 2.0f);
  v[0] = 0;
  offload(ofld::launch{.queue = q}, scale, v, 2.0f);
  offload(ofld::launch{.queue = q}, shift, v, 1.0f);
  v[0] = 0;
  offload(ofld::launch{.nowait = true}, scale, v, 2.0f);
  offload(ofld::launch{.nowait = true}, shift, v, 1.0f);
  v[0] = 0;
  ofld::launch mutable_shape = {.grid = {4}};
  offload(mutable_shape, scale, v, 2.0f);
  offload(mutable_shape, shift, v, 1.0f);
  v[0] = 0;
  const ofld::launch on_zero = {.grid = {4}, .device = 0};
  offload(on_zero, scale, v, 2.0f);
  offload(on_zero, shift, v, 1.0f);
  v[0] = 0;
  int blocks = 0;
  offload(count, v, blocks);
  offload(ofld::launch{.grid = {blocks}}, use, v, blocks);
  v[0] = 0;
  offload(ofld::launch{.grid = {v.size() / 256}}, scale, v, 2.0f);
  offload(ofld::launch{.grid = {v.size() / 256}}, shift, v, 1.0f);
}

// A struct of spans passed whole: the group holds its span fields, each
// with its own transfer (energy: to = 1, acc: tofrom = 3), two ranges.
struct State {
  std::span<const float> energy;
  std::span<float> acc;
};
[[offload::kernel]] void step(const State &s, float a) {}
[[offload::kernel]] void step_copy(State s) {}
// CHECK-LABEL: define {{.*}}void @_Z7structsR5State(
// CHECK: %ofld.group.types = alloca [2 x i64]
// CHECK: store i64 1, ptr %{{.*}}
// CHECK: store i64 3, ptr %{{.*}}
// CHECK: call i64 @__ofld_group_begin(ptr @.ofld.site{{[.0-9]*}}, i32 2,
// CHECK: call void @__ofld_group_end(i64 %{{.*}}, i32 2,
// CHECK: ret void
void structs(State &s) {
  offload(step, s, 2.0f);
  offload(step_copy, s); // by value: the same fields
}

// No group holds a struct where a launch of it maps a range the group does
// not hold (a span variable: the fields may view part of it).
// CHECK-LABEL: define {{.*}}void @_Z15struct_and_spanR5StateSt4spanIfLm18446744073709551615EE(
// CHECK-NOT: __ofld_group_
// CHECK: ret void
void struct_and_span(State &s, std::span<float> v) {
  offload(step, s, 2.0f);
  offload(scale, v, 2.0f);
  offload(step, s, 3.0f);
  offload(scale, v, 2.0f);
}
