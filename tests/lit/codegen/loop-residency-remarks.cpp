// Loop residency (docs/LoopResidency.md): -Rpass=offload names what a loop
// keeps on the device, at its first launch; -Rpass-missed=offload names, for
// each variable a loop still copies on every trip, the use that forbids the
// hold, at that use's line. In the IR, the scope around the loop and the
// holds before the launches; none with the switch off.
// RUN: %clangxx %host-target --offload-host-only -O0 -fsyntax-only -Rpass=offload -Rpass-missed=offload %s 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=remark: --implicit-check-not=error:
// RUN: %clangxx %host-target --offload-host-only -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// RUN: %clangxx %host-target --offload-host-only -O0 -S -emit-llvm -fplugin-arg-offload-no-loop-residency %s -o - \
// RUN:   | FileCheck %s --check-prefix=OFF
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fplugin-arg-offload-bogus %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD
// BAD: error: unknown argument 'bogus' of the offload plugin (known: no-loop-residency)

#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void step(std::span<const float> in, std::span<float> out) {}
[[offload::kernel]] void scale(std::span<float> v, float f) {}

std::vector<float> global(8);
void touch() { global[0] = 1; }

void jacobi(int steps) {
  std::vector<float> a(8), b(8);
  for (int t = 0; t < steps; ++t) {
    offload(step, a, b);
    // CHECK: [[@LINE-1]]:5: remark: 'a' and 'b' stay on the device for the loop at loop-residency-remarks.cpp:[[@LINE-2]] [-Rpass=offload]
    offload(step, b, a);
  }
}

float host_read(int steps) {
  std::vector<float> a(8), b(8);
  float s = 0;
  for (int t = 0; t < steps; ++t) {
    offload(step, a, b);
    // CHECK: [[@LINE-1]]:5: remark: 'a' stays on the device for the loop at loop-residency-remarks.cpp:[[@LINE-2]] [-Rpass=offload]
    s += b[0];
    // CHECK: [[@LINE-1]]:10: remark: the host uses 'b' here: 'b' is copied on every trip of the loop at loop-residency-remarks.cpp:[[@LINE-4]] [-Rpass-missed=offload]
  }
  return s;
}

void with_global(int steps) {
  for (int t = 0; t < steps; ++t) {
    offload(scale, global, 2.0f);
    touch();
    // CHECK: [[@LINE-1]]:5: remark: this call may use 'global': 'global' is copied on every trip of the loop at loop-residency-remarks.cpp:[[@LINE-3]] [-Rpass-missed=offload]
  }
}

void spans(std::span<float> x, std::span<float> y, int steps) {
  // CHECK: [[@LINE-1]]:29: remark: 'x' may view memory that 'y' also maps: 'x' is copied on every trip of the loop at loop-residency-remarks.cpp:[[@LINE+2]] [-Rpass-missed=offload]
  // CHECK: [[@LINE-2]]:49: remark: 'y' may view memory that 'x' also maps: 'y' is copied on every trip of the loop at loop-residency-remarks.cpp:[[@LINE+1]] [-Rpass-missed=offload]
  for (int t = 0; t < steps; ++t)
    offload(step, x, y);
}

// An OpenMP loop keeps its form, and its launches may run on other threads:
// nothing held, no remark.
void in_parallel(std::vector<float> &a, int steps) {
#pragma omp parallel for
  for (int t = 0; t < steps; ++t)
    offload(scale, a, 1.0f);
}

// IR-LABEL: define {{.*}}@_Z6jacobii(
// IR-DAG: call void @_ZN4ofld6detail10loop_scopeC{{[12]}}Ev(
// IR-DAG: call void @_ZN4ofld6detail10loop_scopeD{{[12]}}Ev(
// IR-DAG: call void @__ofld_loop_hold(ptr {{[^,]+}}, i32 0, i64 {{[^,]+}}, ptr {{[^,]+}}, i64 {{[^,]+}}, i64 3, ptr
// IR-DAG: call void @__ofld_loop_hold(ptr {{[^,]+}}, i32 0, i64 {{[^,]+}}, ptr {{[^,]+}}, i64 {{[^,]+}}, i64 3, ptr
// IR-LABEL: define {{.*}}@_Z9host_readi(
// OFF-NOT: loop_scope
// OFF-NOT: __ofld_loop_hold

// The host reads `src` every trip, and `src` may be `a`: `a` is held, and
// right after the scope the loop tells the runtime what `src` reaches (the
// object and its elements), where no hold may overlap.
void source_read(std::vector<float> &a, const std::vector<float> &src,
                 int steps) {
  for (int t = 0; t < steps; ++t)
    offload(scale, a, src[t]);
  // CHECK: [[@LINE-1]]:5: remark: 'a' stays on the device for the loop at loop-residency-remarks.cpp:[[@LINE-2]] [-Rpass=offload]
}

// A field of a reference is held as a variable.
struct graph {
  std::vector<float> offsets, edges;
};
void fields(const graph &g, std::vector<float> &cost, int steps) {
  for (int t = 0; t < steps; ++t)
    offload(step, g.offsets, cost);
  // CHECK: [[@LINE-1]]:5: remark: 'g.offsets' and 'cost' stay on the device for the loop at loop-residency-remarks.cpp:[[@LINE-2]] [-Rpass=offload]
}

// IR-LABEL: define {{.*}}@_Z11source_read
// IR: call void @_ZN4ofld6detail10loop_scopeC{{[12]}}Ev(
// IR-NEXT: load ptr
// IR-NEXT: call void @_ZN4ofld6detail10loop_watchISt6vectorIfSaIfEEEEvRKT_(ptr {{.*}}%
// IR-NOT: call void @_ZN4ofld6detail10loop_watch
// IR-LABEL: define {{.*}}@_Z6fieldsRK5graph
// IR: call void @_ZN4ofld6detail10loop_scopeC{{[12]}}Ev(
// IR-NOT: call void @_ZN4ofld6detail10loop_watch
// IR: call void @_ZN4ofld6detail10loop_scopeD{{[12]}}Ev(
