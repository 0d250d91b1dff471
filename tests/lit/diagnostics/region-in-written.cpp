// A region holds v on the device and a launch in the same function passes v
// to an [[offload::in]] parameter: the launch copies nothing (v is there),
// so the kernel writes the region's copy, which later launches see and, for
// a std::span<T> entry, the region copies back at its end: not what
// 'offload::in' says. A warning at the argument, a note at the entry; the
// rewriter says the same.
#include <span>
#include <vector>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: %if rewriter %{ %rewrite-errors > %t.rw.cpp 2> %t.rw.err %}
// RUN: %if rewriter %{ FileCheck %s --implicit-check-not=warning: < %t.rw.err %}

[[offload::kernel]] void scratch([[offload::in]] std::span<float> w) {}

void host(std::vector<float> &v, std::vector<float> &c) {
  ofld::region r{std::span<float>(v), std::span<const float>(c)}; // expected-note {{the region holds 'v' from here}} expected-note {{the region holds 'c' from here}}
  // CHECK: region-in-written.cpp:[[@LINE+2]]:20: warning: kernel 'scratch' may write its 'offload::in' parameter 'w', but ofld::region 'r' holds 'v' on the device: the kernel writes the region's copy, which later launches in the region see and the region copies back at its end; launch on a copy of 'v', or outside the region
  // CHECK-NEXT: region-in-written.cpp:[[@LINE-2]]:18: note: the region holds 'v' from here
  offload(scratch, v); // expected-warning {{kernel 'scratch' may write its 'offload::in' parameter 'w', but ofld::region 'r' holds 'v' on the device: the kernel writes the region's copy, which later launches in the region see and the region copies back at its end; launch on a copy of 'v', or outside the region}}
  // CHECK: region-in-written.cpp:[[@LINE+2]]:20: warning: kernel 'scratch' may write its 'offload::in' parameter 'w', but ofld::region 'r' holds 'c' on the device: the kernel writes the region's copy, which later launches in the region see; launch on a copy of 'c', or outside the region
  // CHECK-NEXT: region-in-written.cpp:[[@LINE-5]]:39: note: the region holds 'c' from here
  offload(scratch, c); // expected-warning {{kernel 'scratch' may write its 'offload::in' parameter 'w', but ofld::region 'r' holds 'c' on the device: the kernel writes the region's copy, which later launches in the region see; launch}}
}

void outside(std::vector<float> &v) {
  { ofld::region r{std::span<float>(v)}; }
  offload(scratch, v); // after the region: its own copy, no warning
}
