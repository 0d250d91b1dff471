// A lambda cannot be a kernel: offload() needs a function it can name.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

// CHECK: attr-lambda.cpp:[[@LINE+1]]:20: error: a lambda cannot be an offload kernel: offload() launches a function named directly; make it a free or static member function
auto square = [] [[offload::kernel]] (int &x) { x *= x; }; // expected-error {{a lambda cannot be an offload kernel: offload() launches a function named directly; make it a free or static member function}} expected-warning {{C++23 extension}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
