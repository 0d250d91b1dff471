// A reduction parameter taken by value: every thread would combine into a
// copy of its own and nothing would come back (docs/Reductions.md).
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

// CHECK: reduction-by-value.cpp:[[@LINE+1]]:46: error: reduction parameter 's' of type 'ofld::sum<double>' is not an lvalue reference: each thread would combine into a copy and the result would be lost; take it as 'ofld::sum<double> &'
[[offload::kernel]] void f(ofld::sum<double> s) {} // expected-error {{reduction parameter 's' of type 'ofld::sum<double>' is not an lvalue reference: each thread would combine into a copy and the result would be lost; take it as 'ofld::sum<double> &'}}
// CHECK: reduction-by-value.cpp:[[@LINE+1]]:45: error: reduction parameter 'm' of type 'ofld::max<int> &&' is not an lvalue reference
[[offload::kernel]] void g(ofld::max<int> &&m) {} // expected-error {{reduction parameter 'm' of type 'ofld::max<int> &&' is not an lvalue reference: each thread would combine into a copy and the result would be lost; take it as 'ofld::max<int> &'}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
