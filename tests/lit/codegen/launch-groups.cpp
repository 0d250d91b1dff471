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

// No group: host code between the launches, a launch configuration, a
// by-value argument that reads held data, a span variable, one launch.
// CHECK-LABEL: define {{.*}}void @_Z9separatedRSt6vectorIfSaIfEESt4spanIfLm18446744073709551615EE(
// CHECK-NOT: __ofld_group_
// CHECK: ret void
void separated(std::vector<float> &v, std::span<float> s) {
  offload(scale, v, 2.0f);
  v[0] = 1;
  offload(shift, v, 1.0f);
  offload(ofld::launch{.grid = {4}, .block = {64}}, scale, v, 2.0f);
  offload(shift, v, 1.0f);
  offload(scale, s, 2.0f);
  offload(shift, s, 1.0f);
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
