// An argument that does not convert to the parameter type.
#include <span>
#include <vector>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s
// RUN: %if rewriter %{ not %offload-rewrite %s -- -std=c++20 -include offload/offload.hpp -I%shim-include -fno-caret-diagnostics 2>&1 | FileCheck %s %}

[[offload::kernel]] void fill(std::span<float> v, float x) {}
void host(std::vector<int> &ints) {
  // CHECK: call-wrong-argument-type.cpp:[[@LINE+1]]:3: error: no matching function for call to 'offload'
  offload(fill, ints, 1.0f); // expected-error {{no matching function for call to 'offload'}}
  // expected-note@* 2 {{candidate}}
}
