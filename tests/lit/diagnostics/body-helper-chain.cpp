// Functions a kernel calls are checked too; the error is at the construct,
// with notes for the calls that lead there.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

void fail() {
  // CHECK: body-helper-chain.cpp:[[@LINE+1]]:3: error: kernel 'k' cannot throw an exception: device code has no exception handling; report failures through an output parameter
  throw 1; // expected-error {{kernel 'k' cannot throw an exception}}
}
void check(int x) {
  if (x < 0)
    fail(); // expected-note {{'fail' is called from 'check' here}}
}
[[offload::kernel]] void k(int &x) {
  check(x); // expected-note {{'check' is called from 'k' here}}
}
void host_only() { throw 2; } // never reached from a kernel: fine
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
