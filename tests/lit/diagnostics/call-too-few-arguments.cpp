// Too few arguments: no offload() overload matches (the kernel's parameter
// types are deduced from the kernel alone, so the count must match).
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

[[offload::kernel]] void add(int a, int b, int &out) {}
void host(int &r) {
  // CHECK: call-too-few-arguments.cpp:[[@LINE+1]]:3: error: no matching function for call to 'offload'
  offload(add, 1, r); // expected-error {{no matching function for call to 'offload'}}
  // expected-note@* 2 {{candidate}}
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
