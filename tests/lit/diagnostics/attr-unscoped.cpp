// Only the scoped spellings are ours: [[kernel]] is an unknown attribute that
// clang ignores (with its usual warning), so the function is no kernel.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

[[kernel]] void f(int) {} // expected-warning {{unknown attribute 'kernel' ignored}}
void g([[out]] int &x) {} // expected-warning {{unknown attribute 'out' ignored}}

void host() {
  // CHECK: attr-unscoped.cpp:[[@LINE+1]]:11: error: 'f' is not an offload kernel; mark it '{{\[\[}}offload::kernel{{\]\]}}'
  offload(f, 1); // expected-error {{'f' is not an offload kernel; mark it '[[offload::kernel]]'}}
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
