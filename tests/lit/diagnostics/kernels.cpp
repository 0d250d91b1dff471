// Kernel declarations that cannot be offloaded.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

#include <coroutine>

// CHECK: kernels.cpp:[[@LINE+1]]:25: error: offload kernel 'returns_value' must return void; write results through a 'std::span<T>' or 'T&' parameter
[[offload::kernel]] int returns_value(int x) { return x; } // expected-error {{offload kernel 'returns_value' must return void; write results through a 'std::span<T>' or 'T&' parameter}}

struct S {
  // CHECK: kernels.cpp:[[@LINE+1]]:28: error: offload kernel 'member' cannot be a non-static member function; make it a free or static member function
  [[offload::kernel]] void member(int); // expected-error {{offload kernel 'member' cannot be a non-static member function; make it a free or static member function}}
  // CHECK: kernels.cpp:[[@LINE+1]]:36: error: offload kernel 'virt' cannot be virtual
  [[offload::kernel]] virtual void virt(int); // expected-error {{offload kernel 'virt' cannot be virtual}}
  [[offload::kernel]] static void fine(int);
};
void S::member(int) {}
void S::virt(int) {}
void S::fine(int) {}

// CHECK: kernels.cpp:[[@LINE+1]]:26: error: offload kernel 'variadic' cannot be variadic
[[offload::kernel]] void variadic(int, ...) {} // expected-error {{offload kernel 'variadic' cannot be variadic}}

// CHECK: kernels.cpp:[[@LINE+1]]:25: error: 'main' cannot be an offload kernel
[[offload::kernel]] int main() { return 0; } // expected-error {{'main' cannot be an offload kernel}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
