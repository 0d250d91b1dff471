// An overload set names no single kernel; explicit parameter types pick one.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s
// RUN: %if rewriter %{ not %offload-rewrite %s -- -std=c++20 -include offload/offload.hpp -I%shim-include -fno-caret-diagnostics 2>&1 | FileCheck %s %}

[[offload::kernel]] void scale(int &x) {}
[[offload::kernel]] void scale(float &x) {}
void host(int &i) {
  // CHECK: call-overloaded-kernel.cpp:[[@LINE+1]]:3: error: no matching function for call to 'offload'
  offload(scale, i); // expected-error {{no matching function for call to 'offload'}}
  // expected-note@* 2 {{candidate}}
  offload<int &>(scale, i); // explicit parameter types pick the overload
}
