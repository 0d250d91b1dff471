// The argument of a reduction parameter must be a modifiable lvalue of
// exactly its T: offload() takes a `T&` there (reduction.hpp), so a const
// variable, a temporary or a variable of another type is an error at the
// argument naming the `T &` it must be, never a reduction into a copy.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

[[offload::kernel]] void k(std::span<const double> x, ofld::sum<double> &s) {}
void host(std::span<const double> x) {
  const double c = 0;
  int i = 0;
  // CHECK: call-reduction-argument.cpp:[[@LINE+1]]:17: error: argument 2 of kernel 'k' has type 'const double', which does not convert to the parameter's type 'double &'
  offload(k, x, c); // expected-error {{argument 2 of kernel 'k' has type 'const double', which does not convert to the parameter's type 'double &'}}
  // CHECK: call-reduction-argument.cpp:[[@LINE+1]]:17: error: argument 2 of kernel 'k' has type 'double', which does not convert to the parameter's type 'double &'
  offload(k, x, 0.0); // expected-error {{argument 2 of kernel 'k' has type 'double', which does not convert to the parameter's type 'double &'}}
  // CHECK: call-reduction-argument.cpp:[[@LINE+1]]:17: error: argument 2 of kernel 'k' has type 'int', which does not convert to the parameter's type 'double &'
  offload(k, x, i); // expected-error {{argument 2 of kernel 'k' has type 'int', which does not convert to the parameter's type 'double &'}}
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
