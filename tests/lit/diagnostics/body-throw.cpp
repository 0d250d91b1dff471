// Exceptions cannot leave (or be thrown in) device code.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s

[[offload::kernel]] void check(std::span<const int> v) {
  if (v.empty())
    // CHECK: body-throw.cpp:[[@LINE+1]]:5: error: kernel 'check' cannot throw an exception
    throw 42; // expected-error {{kernel 'check' cannot throw an exception: device code has no exception handling; report failures through an output parameter}}
}
