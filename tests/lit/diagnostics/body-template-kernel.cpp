// A kernel template's body is checked per launched instantiation; a template
// that is never launched is not checked.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s

template <class T> [[offload::kernel]] void widen(std::span<T> v) {
  if constexpr (sizeof(T) < 4)
    // CHECK: body-template-kernel.cpp:[[@LINE+1]]:5: error: kernel 'widen<short>' cannot throw an exception
    throw v.size(); // expected-error {{kernel 'widen<short>' cannot throw an exception}}
}
template <class T> [[offload::kernel]] void unused(std::span<T> v) { throw 0; }

void host(std::span<int> i, std::span<short> s) {
  offload(widen<int>, i);
  offload(widen<short>, s);
}
