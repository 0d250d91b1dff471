// Device numbers below -1 never exist (-1 is the default device).
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

[[offload::kernel]] void k(std::span<float> v) {}

void host(std::span<float> v) {
  // CHECK: launch-bad-device.cpp:[[@LINE+1]]:34: error: launch device -2 does not exist; use -1 for the default device or 0 to ofld::device_count() - 1
  offload(ofld::launch{.device = -2}, k, v); // expected-error {{launch device -2 does not exist; use -1 for the default device or 0 to ofld::device_count() - 1}}
  offload(ofld::launch{.device = -1}, k, v);
  offload(ofld::launch{.device = 3}, k, v); // may exist: checked at run time
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
