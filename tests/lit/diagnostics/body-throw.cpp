// Exceptions cannot leave (or be thrown in) device code.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

[[offload::kernel]] void check(std::span<const int> v) {
  if (v.empty())
    // CHECK: body-throw.cpp:[[@LINE+1]]:5: error: kernel 'check' cannot throw an exception: device code has no exception handling; report failures through an output parameter
    throw 42; // expected-error {{kernel 'check' cannot throw an exception: device code has no exception handling; report failures through an output parameter}}
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
