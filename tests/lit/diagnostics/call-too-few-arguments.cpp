// Too few arguments: no offload() overload matches (the kernel's parameter
// types are deduced from the kernel alone, so the count must match).
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s
// RUN: %if rewriter %{ not %offload-rewrite %s -- -std=c++20 -include offload/offload.hpp -I%shim-include -fno-caret-diagnostics 2>&1 | FileCheck %s %}

[[offload::kernel]] void add(int a, int b, int &out) {}
void host(int &r) {
  // CHECK: call-too-few-arguments.cpp:[[@LINE+1]]:3: error: no matching function for call to 'offload'
  offload(add, 1, r); // expected-error {{no matching function for call to 'offload'}}
  // expected-note@* 2 {{candidate}}
}
