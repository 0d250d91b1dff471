// [[offload::out]] belongs on kernel parameters only.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s
// RUN: %if rewriter %{ not %offload-rewrite %s -- -std=c++20 -include offload/offload.hpp -I%shim-include -fno-caret-diagnostics 2>&1 | FileCheck %s %}

// CHECK: attr-out-subjects.cpp:[[@LINE+1]]:3: error: 'offload::out' only applies to kernel parameters
[[offload::out]] void f(int &x); // expected-error {{'offload::out' only applies to kernel parameters}}
struct S {
  [[offload::out]] int field; // expected-error {{'offload::out' only applies to kernel parameters}}
};
