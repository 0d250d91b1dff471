// offload() in a host template: nothing is checked until it is instantiated,
// and each instantiation is checked with its own types.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

[[offload::kernel]] void inc(int &x) { ++x; }
void not_a_kernel(int &x) {}

template <class T> void never_instantiated(T &t) { offload(not_a_kernel, t); }
template <class T> void launch(T &t) {
  // CHECK: call-in-host-template.cpp:[[@LINE+1]]:16: error: argument 1 of kernel 'inc' has type 'double', which does not convert to the parameter's type 'int &'
  offload(inc, t); // expected-error {{argument 1 of kernel 'inc' has type 'double', which does not convert to the parameter's type 'int &'}}
}
void host(int &i, double &d) {
  launch(i);
  launch(d); // expected-note {{in instantiation of function template specialization 'launch<double>' requested here}}
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
