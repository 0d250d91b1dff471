// A coroutine cannot be a kernel.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

#include <coroutine>

// A void coroutine: the traits name a promise type for (void, int).
struct VoidPromise {
  void get_return_object() {}
  std::suspend_never initial_suspend() { return {}; }
  std::suspend_never final_suspend() noexcept { return {}; }
  void return_void() {}
  void unhandled_exception() {}
};
template <> struct std::coroutine_traits<void, int> {
  using promise_type = VoidPromise;
};

// CHECK: coroutine.cpp:[[@LINE+1]]:26: error: offload kernel 'coro' cannot be a coroutine
[[offload::kernel]] void coro(int) { co_return; } // expected-error {{offload kernel 'coro' cannot be a coroutine}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
