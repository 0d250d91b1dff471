// An argument that does not convert to its parameter's type: said about that
// argument, in the kernel's terms (offload()'s own parameter types are the
// header's).
#include <span>
#include <vector>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

[[offload::kernel]] void fill(std::span<float> v, float x) {}
[[offload::kernel]] void one(int) {}
void host(std::vector<int> &ints, std::span<int> s, std::span<float> f) {
  // CHECK: call-wrong-argument-type.cpp:[[@LINE+1]]:17: error: argument 1 of kernel 'fill' has type 'std::vector<int>', which does not convert to the parameter's type 'std::span<float>'
  offload(fill, ints, 1.0f); // expected-error {{argument 1 of kernel 'fill' has type 'std::vector<int>', which does not convert to the parameter's type 'std::span<float>'}}
  // CHECK: call-wrong-argument-type.cpp:[[@LINE+1]]:16: error: argument 1 of kernel 'one' has type 'std::span<int>', which does not convert to the parameter's type 'int'
  offload(one, s); // expected-error {{argument 1 of kernel 'one' has type 'std::span<int>', which does not convert to the parameter's type 'int'}}
  // CHECK: call-wrong-argument-type.cpp:[[@LINE+1]]:20: error: argument 2 of kernel 'fill' has type 'const char[2]', which does not convert to the parameter's type 'float'
  offload(fill, f, "x"); // expected-error {{argument 2 of kernel 'fill' has type 'const char[2]'}}
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
