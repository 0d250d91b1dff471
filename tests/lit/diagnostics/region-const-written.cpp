// A region maps v to the device only (std::span<const T>) and a launch in
// the same function passes v to a parameter the kernel writes: a warning at
// the argument, a note at the region entry. The runtime then copies the
// writes back at the region's end (every path alike) and does not warn
// again (tests/lit/streams/region_constness.test: the runtime's warning
// where the plugin cannot see both). offload-rewrite reports the same (a
// warning: it rewrites the file) and marks the call sites it warned about,
// so that the bridge does not warn again either.
#include <span>
#include <vector>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: %if rewriter %{ %rewrite-errors > %t.rw.cpp 2> %t.rw.err %}
// RUN: %if rewriter %{ FileCheck %s --implicit-check-not=warning: < %t.rw.err %}

[[offload::kernel]] void set_one(std::span<float> v) {}
[[offload::kernel]] void copy(std::span<const float> in, std::span<float> out) {}

void host(std::vector<float> &v, std::vector<float> &o) {
  ofld::region r{std::span<const float>(v), std::span<float>(o)}; // expected-note 2 {{'v' is mapped to the device only here}}
  // CHECK: region-const-written.cpp:[[@LINE+2]]:20: warning: kernel 'set_one' writes through parameter 'v' into 'v', which ofld::region 'r' maps to the device only (std::span<const T>); the region copies it back at its end, as if it were std::span<T>
  // CHECK-NEXT: region-const-written.cpp:[[@LINE-2]]:18: note: 'v' is mapped to the device only here
  offload(set_one, v); // expected-warning {{kernel 'set_one' writes through parameter 'v' into 'v', which ofld::region 'r' maps to the device only (std::span<const T>); the region copies it back at its end, as if it were std::span<T>}}
  offload(copy, v, o); // reads v: fine
  // CHECK: region-const-written.cpp:[[@LINE+2]]:47: warning: kernel 'copy' writes through parameter 'out' into 'v'
  // CHECK-NEXT: region-const-written.cpp:[[@LINE-6]]:18: note: 'v' is mapped to the device only here
  offload(ofld::launch{.grid = {1}}, copy, o, v); // expected-warning {{kernel 'copy' writes through parameter 'out' into 'v', which ofld::region 'r' maps to the device only}}
}

void after(std::vector<float> &v) {
  { ofld::region r{std::span<const float>(v)}; }
  offload(set_one, v); // the region has ended: fine
}
