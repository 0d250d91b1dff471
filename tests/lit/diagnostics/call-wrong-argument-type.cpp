// An argument that does not convert to the parameter type: offload()'s
// parameters are the kernel's, so clang itself says that no overload matches.
#include <span>
#include <vector>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

[[offload::kernel]] void fill(std::span<float> v, float x) {}
[[offload::kernel]] void one(int) {}
void host(std::vector<int> &ints, std::span<int> s) {
  // CHECK: call-wrong-argument-type.cpp:[[@LINE+1]]:3: error: no matching function for call to 'offload'
  offload(fill, ints, 1.0f); // expected-error {{no matching function for call to 'offload'}}
  // CHECK: call-wrong-argument-type.cpp:[[@LINE+1]]:3: error: no matching function for call to 'offload'
  offload(one, s); // expected-error {{no matching function for call to 'offload'}}
  // expected-note@* 4 {{candidate}}
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
