// A coroutine cannot be a kernel.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s

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

[[offload::kernel]] void coro(int) { co_return; } // expected-error {{offload kernel 'coro' cannot be a coroutine}}
