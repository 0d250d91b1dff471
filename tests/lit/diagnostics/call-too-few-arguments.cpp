// Too few arguments: offload() takes the kernel's parameter types from the
// kernel alone, so the count must match; a default argument is not filled in.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

[[offload::kernel]] void add(int a, int b, int &out) {}
[[offload::kernel]] void scale(std::span<float> y, float a = 2.0f) {} // expected-note {{parameter 'a' of kernel 'scale' has a default argument, which offload() does not fill in: pass it explicitly}}
void host(int &r, std::span<float> y) {
  // CHECK: call-too-few-arguments.cpp:[[@LINE+1]]:20: error: too few arguments to offload(): kernel 'add' takes 3, 2 given
  offload(add, 1, r); // expected-error {{too few arguments to offload(): kernel 'add' takes 3, 2 given}}
  // CHECK: call-too-few-arguments.cpp:[[@LINE+1]]:19: error: too few arguments to offload(): kernel 'scale' takes 2, 1 given
  offload(scale, y); // expected-error {{too few arguments to offload(): kernel 'scale' takes 2, 1 given}}
  // CHECK: call-too-few-arguments.cpp:[[@LINE+1]]:41: error: too few arguments to offload(): kernel 'add' takes 3, 0 given
  offload(ofld::launch{.grid = {4}}, add); // expected-error {{too few arguments to offload(): kernel 'add' takes 3, 0 given}}
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
