// Even a constexpr pointer is not followed: the kernel must be named at the
// call, where its parameter types decide the transfers.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s
// RUN: %if rewriter %{ not %offload-rewrite %s -- -std=c++20 -include offload/offload.hpp -I%shim-include -fno-caret-diagnostics 2>&1 | FileCheck %s %}

[[offload::kernel]] void k(int &x) {}
constexpr void (*ptr)(int &) = k;
void host(int &x) {
  // CHECK: call-constexpr-pointer.cpp:[[@LINE+1]]:11: error: offload() needs a kernel named directly
  offload(ptr, x); // expected-error {{offload() needs a kernel named directly, not a function pointer whose target is unknown at compile time}}
}
