// A deduced return type is still a return value.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

// CHECK: kernel-returns-auto.cpp:[[@LINE+1]]:26: error: offload kernel 'twice' must return void; write results through a 'std::span<T>' or 'T&' parameter
[[offload::kernel]] auto twice(int x) { return 2 * x; } // expected-error {{offload kernel 'twice' must return void; write results through a 'std::span<T>' or 'T&' parameter}}
// CHECK: kernel-returns-auto.cpp:[[@LINE+1]]:26: error: offload kernel 'ref' must return void; write results through a 'std::span<T>' or 'T&' parameter
[[offload::kernel]] int &ref(int &x) { return x; } // expected-error {{offload kernel 'ref' must return void}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
