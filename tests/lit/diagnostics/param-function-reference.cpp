// A reference to a function is a host function address too.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

// CHECK: param-function-reference.cpp:[[@LINE+1]]:38: error: kernel parameter 'f' has function pointer type 'int (&)(int)': host function addresses are meaningless on the device
[[offload::kernel]] void apply(int (&f)(int), int &x) {} // expected-error {{kernel parameter 'f' has function pointer type 'int (&)(int)': host function addresses are meaningless on the device}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
