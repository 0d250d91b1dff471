// Functions a kernel calls are checked too; the error is at the construct,
// with notes for the calls that lead there.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s

void fail() {
  // CHECK: body-helper-chain.cpp:[[@LINE+1]]:3: error: kernel 'k' cannot throw an exception
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
