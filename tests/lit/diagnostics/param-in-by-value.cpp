// [[offload::in]] on a by-value parameter: the kernel has its own copy and
// nothing comes back already; the attribute would say nothing.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

// CHECK: param-in-by-value.cpp:[[@LINE+1]]:48: error: 'offload::in' on by-value parameter 'n' changes nothing: the kernel has its own copy and nothing comes back; drop 'offload::in'
[[offload::kernel]] void f([[offload::in]] int n) {} // expected-error {{'offload::in' on by-value parameter 'n' changes nothing: the kernel has its own copy and nothing comes back; drop 'offload::in'}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
