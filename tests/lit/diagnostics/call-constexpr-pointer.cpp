// Even a constexpr pointer is not followed: the kernel must be named at the
// call, where its parameter types decide the transfers.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

[[offload::kernel]] void k(int &x) {}
constexpr void (*ptr)(int &) = k;
void host(int &x) {
  // CHECK: call-constexpr-pointer.cpp:[[@LINE+1]]:11: error: offload() needs a kernel named directly, not a function pointer whose target is unknown at compile time
  offload(ptr, x); // expected-error {{offload() needs a kernel named directly, not a function pointer whose target is unknown at compile time}}
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
