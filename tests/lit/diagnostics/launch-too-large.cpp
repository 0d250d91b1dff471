// Dimensions at or above 2^31 fit no device (CUDA's grid.x limit is 2^31-1,
// the runtime's default-shape check the same).
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

[[offload::kernel]] void k(std::span<float> v) {}

void host(std::span<float> v) {
  // CHECK: launch-too-large.cpp:[[@LINE+1]]:33: error: launch grid.x is 4294967295, more than the 2147483647 any device allows (a negative value converted to unsigned?)
  offload(ofld::launch{.grid = {0xffffffffu}}, k, v); // expected-error {{launch grid.x is 4294967295, more than the 2147483647 any device allows (a negative value converted to unsigned?)}}
  // CHECK: launch-too-large.cpp:[[@LINE+1]]:54: error: launch block.z is 4294967294, more than the 2147483647 any device allows (a negative value converted to unsigned?)
  offload(ofld::launch{.grid = {4}, .block = {32, 1, -2u}}, k, v); // expected-error {{launch block.z is 4294967294, more than the 2147483647}}
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
