// A deduced return type is still a return value.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s
// RUN: %if rewriter %{ not %offload-rewrite %s -- -std=c++20 -include offload/offload.hpp -I%shim-include -fno-caret-diagnostics 2>&1 | FileCheck %s %}

// CHECK: kernel-returns-auto.cpp:[[@LINE+1]]:26: error: offload kernel 'twice' must return void
[[offload::kernel]] auto twice(int x) { return 2 * x; } // expected-error {{offload kernel 'twice' must return void; write results through a 'std::span<T>' or 'T&' parameter}}
[[offload::kernel]] int &ref(int &x) { return x; } // expected-error {{offload kernel 'ref' must return void}}
