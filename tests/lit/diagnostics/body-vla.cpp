// Variable-length arrays (a clang extension in C++) on a device stack.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

[[offload::kernel]] void scratch(int n, int &out) {
  // CHECK: body-vla.cpp:[[@LINE+1]]:7: error: kernel 'scratch' declares variable-length array 'tmp': a kernel's stack frame needs a size known at compile time; use a fixed-size array or pass the data as a std::span parameter
  int tmp[n]; // expected-error {{kernel 'scratch' declares variable-length array 'tmp': a kernel's stack frame needs a size known at compile time; use a fixed-size array or pass the data as a std::span parameter}} expected-warning {{variable length arrays in C++ are a Clang extension}} expected-note {{function parameter 'n' with unknown value}} expected-note@-2 {{declared here}}
  tmp[0] = 1;
  out = tmp[0];
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
