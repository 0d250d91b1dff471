// GPUs have no long double (NVIDIA and AMD devices compute in at most
// double): device code that uses it is rejected once per function, on every
// target, so that the host offload target's builds catch it too.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

struct Precise {
  long double sum;
  double rest;
};

double widen(double v);
double accumulate(long double acc, double v);

[[offload::kernel]] void k(double &x, Precise &p) {
  // CHECK: body-long-double.cpp:[[@LINE+1]]:15: error: kernel 'k' uses 'long double', which GPUs do not have; use 'double'
  long double acc = x; // expected-error {{kernel 'k' uses 'long double'}}
  acc += 1;
  x = double(acc) + widen(x); // expected-note {{'widen' is called from 'k' here}}
  x += p.rest + accumulate(0.0, x); // expected-note {{'accumulate' is called from 'k' here}}
  x += double(sizeof(long double)); // unevaluated: fine
}

double widen(double v) {
  // CHECK: body-long-double.cpp:[[@LINE+1]]:19: error: kernel 'k' uses 'long double', which GPUs do not have; use 'double'
  return double(v * 1.0L); // expected-error {{kernel 'k' uses 'long double', which GPUs do not have; use 'double'}}
}
// CHECK: body-long-double.cpp:[[@LINE+1]]:31: error: kernel 'k' uses 'long double', which GPUs do not have; use 'double'
double accumulate(long double acc, double v) { // expected-error {{kernel 'k' uses 'long double'}}
  return double(acc) + v;
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
