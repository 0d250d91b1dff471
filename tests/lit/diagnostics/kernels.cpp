// Kernel declarations that cannot be offloaded.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s

#include <coroutine>

[[offload::kernel]] int returns_value(int x) { return x; } // expected-error {{offload kernel 'returns_value' must return void; write results through a 'std::span<T>' or 'T&' parameter}}

struct S {
  [[offload::kernel]] void member(int); // expected-error {{offload kernel 'member' cannot be a non-static member function; make it a free or static member function}}
  [[offload::kernel]] virtual void virt(int); // expected-error {{offload kernel 'virt' cannot be virtual}}
  [[offload::kernel]] static void fine(int);
};
void S::member(int) {}
void S::virt(int) {}
void S::fine(int) {}

[[offload::kernel]] void variadic(int, ...) {} // expected-error {{offload kernel 'variadic' cannot be variadic}}

[[offload::kernel]] int main() { return 0; } // expected-error {{'main' cannot be an offload kernel}}
