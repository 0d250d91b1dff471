// An offload() call that fits no overload for a reason the plugin has no
// better words for (no kernel at all) keeps clang's own error, once, at the
// call, with its notes (after the plugin's own errors: it is let through once
// every declaration has been seen); the other calls are checked as usual.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

[[offload::kernel]] void inc(int &x) { ++x; }
void host(int &i) {
  // CHECK: call-unresolved-other.cpp:[[@LINE+1]]:14: error: too few arguments to offload(): kernel 'inc' takes 1, 0 given
  offload(inc); // expected-error {{too few arguments to offload(): kernel 'inc' takes 1, 0 given}}
  offload(inc, i);
}
void other(int &i) {
  // CHECK: call-unresolved-other.cpp:[[@LINE+1]]:3: error: no matching function for call to 'offload'
  offload(42, i); // expected-error {{no matching function for call to 'offload'}}
  // expected-note@* 2 {{candidate}}
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
