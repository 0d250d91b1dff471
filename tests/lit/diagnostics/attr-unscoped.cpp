// Only the scoped spellings are ours: [[kernel]] is an unknown attribute that
// clang ignores (with its usual warning), so the function is no kernel.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s
// RUN: %if rewriter %{ not %offload-rewrite %s -- -std=c++20 -include offload/offload.hpp -I%shim-include -fno-caret-diagnostics 2>&1 | FileCheck %s %}

[[kernel]] void f(int) {} // expected-warning {{unknown attribute 'kernel' ignored}}
void g([[out]] int &x) {} // expected-warning {{unknown attribute 'out' ignored}}

void host() {
  // CHECK: attr-unscoped.cpp:[[@LINE+1]]:11: error: 'f' is not an offload kernel
  offload(f, 1); // expected-error {{'f' is not an offload kernel; mark it '[[offload::kernel]]'}}
}
