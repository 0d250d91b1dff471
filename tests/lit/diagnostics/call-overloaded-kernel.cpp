// An overload set names no single kernel; explicit parameter types pick one.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

[[offload::kernel]] void scale(int &x) {}
[[offload::kernel]] void scale(float &x) {}
void host(int &i) {
  // CHECK: call-overloaded-kernel.cpp:[[@LINE+1]]:3: error: no matching function for call to 'offload'
  offload(scale, i); // expected-error {{no matching function for call to 'offload'}}
  // expected-note@* 2 {{candidate}}
  offload<int &>(scale, i); // explicit parameter types pick the overload
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
