// Device threads have no thread-local storage: a thread_local variable in a
// kernel (or a function it calls), declared there or at namespace scope, is
// rejected on every target, the host offload target included.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

thread_local int calls = 0;
struct Cache {
  static thread_local int hits;
};

int next_id();

[[offload::kernel]] void k(int &x) {
  // CHECK: body-thread-local.cpp:[[@LINE+1]]:8: error: kernel 'k' uses thread-local variable 'calls': device threads have no thread-local storage; use a local variable for per-thread state
  x += calls; // expected-error {{kernel 'k' uses thread-local variable 'calls': device threads have no thread-local storage; use a local variable for per-thread state}}
  // CHECK: body-thread-local.cpp:[[@LINE+1]]:15: error: kernel 'k' uses thread-local variable 'hits': device threads have no thread-local storage; use a local variable for per-thread state
  x += Cache::hits; // expected-error {{kernel 'k' uses thread-local variable 'hits'}}
  x += next_id(); // expected-note {{'next_id' is called from 'k' here}}
}
int next_id() {
  // CHECK: body-thread-local.cpp:[[@LINE+1]]:20: error: kernel 'k' declares thread-local variable 'id': device threads have no thread-local storage; use a local variable for per-thread state
  thread_local int id = 0; // expected-error {{kernel 'k' declares thread-local variable 'id': device threads have no thread-local storage; use a local variable for per-thread state}}
  return ++id;
}
int host_only() { return calls + next_id(); } // host code may use them
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
