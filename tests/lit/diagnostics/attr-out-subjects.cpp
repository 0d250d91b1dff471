// [[offload::out]] belongs on kernel parameters only.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

// CHECK: attr-out-subjects.cpp:[[@LINE+1]]:3: error: 'offload::out' only applies to kernel parameters
[[offload::out]] void f(int &x); // expected-error {{'offload::out' only applies to kernel parameters}}
struct S {
  // CHECK: attr-out-subjects.cpp:[[@LINE+1]]:5: error: 'offload::out' only applies to kernel parameters
  [[offload::out]] int field; // expected-error {{'offload::out' only applies to kernel parameters}}
};
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
