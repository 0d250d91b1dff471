// A lambda cannot be a kernel: offload() needs a function it can name.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s
// RUN: %if rewriter %{ not %offload-rewrite %s -- -std=c++20 -include offload/offload.hpp -I%shim-include -fno-caret-diagnostics 2>&1 | FileCheck %s %}

// CHECK: attr-lambda.cpp:[[@LINE+1]]:20: error: a lambda cannot be an offload kernel
auto square = [] [[offload::kernel]] (int &x) { x *= x; }; // expected-error {{a lambda cannot be an offload kernel: offload() launches a function named directly; make it a free or static member function}} expected-warning {{C++23 extension}}
