// A kernel template's body is checked per launched instantiation; a template
// that is never launched is not checked.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

template <class T> [[offload::kernel]] void widen(std::span<T> v) {
  if constexpr (sizeof(T) < 4)
    // CHECK: body-template-kernel.cpp:[[@LINE+1]]:5: error: kernel 'widen<short>' cannot throw an exception: device code has no exception handling; report failures through an output parameter
    throw v.size(); // expected-error {{kernel 'widen<short>' cannot throw an exception}}
}
template <class T> [[offload::kernel]] void unused(std::span<T> v) { throw 0; }

void host(std::span<int> i, std::span<short> s) {
  offload(widen<int>, i);
  offload(widen<short>, s);
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
