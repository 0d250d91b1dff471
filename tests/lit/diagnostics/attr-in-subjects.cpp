// [[offload::in]] belongs on kernel parameters only, as [[offload::out]].
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

// CHECK: attr-in-subjects.cpp:[[@LINE+1]]:3: error: 'offload::in' only applies to kernel parameters
[[offload::in]] void f(int &x); // expected-error {{'offload::in' only applies to kernel parameters}}
struct S {
  // CHECK: attr-in-subjects.cpp:[[@LINE+1]]:5: error: 'offload::in' only applies to kernel parameters
  [[offload::in]] int field; // expected-error {{'offload::in' only applies to kernel parameters}}
};
// CHECK: attr-in-subjects.cpp:[[@LINE+1]]:30: error: 'offload::in' takes no arguments
[[offload::kernel]] void k([[offload::in(1)]] int &x); // expected-error {{'offload::in' takes no arguments}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
