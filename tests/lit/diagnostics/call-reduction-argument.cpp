// The argument of a reduction parameter must be a modifiable lvalue of
// exactly its T: offload() takes a `T&` there (reduction.hpp), so a const
// variable, a temporary or a variable of another type is clang's own "no
// matching function" error with the reason, never a reduction into a copy.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

[[offload::kernel]] void k(std::span<const double> x, ofld::sum<double> &s) {}
void host(std::span<const double> x) {
  const double c = 0;
  int i = 0;
  // CHECK: call-reduction-argument.cpp:[[@LINE+1]]:3: error: no matching function for call to 'offload'
  offload(k, x, c); // expected-error {{no matching function for call to 'offload'}}
  // expected-note@* {{3rd argument ('const double') would lose const qualifier}}
  // CHECK: call-reduction-argument.cpp:[[@LINE+1]]:3: error: no matching function for call to 'offload'
  offload(k, x, 0.0); // expected-error {{no matching function for call to 'offload'}}
  // expected-note@* {{expects an lvalue for 3rd argument}}
  // CHECK: call-reduction-argument.cpp:[[@LINE+1]]:3: error: no matching function for call to 'offload'
  offload(k, x, i); // expected-error {{no matching function for call to 'offload'}}
  // expected-note@* {{no known conversion from 'int' to}}
  // expected-note@* 3 {{candidate template ignored}}
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
