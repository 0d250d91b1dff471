// With x set, a zero y or z would launch nothing (CUDA) or be read as 1 (the
// runtime): either way not what was written.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

[[offload::kernel]] void k(std::span<float> v) {}

void host(std::span<float> v) {
  // CHECK: launch-zero-dimension.cpp:[[@LINE+1]]:37: error: launch grid dimension y is 0; every dimension must be at least 1
  offload(ofld::launch{.grid = {16, 0}}, k, v); // expected-error {{launch grid dimension y is 0; every dimension must be at least 1}}
  // CHECK: launch-zero-dimension.cpp:[[@LINE+1]]:43: error: launch block dimension z is 0; every dimension must be at least 1
  offload({.grid = {16}, .block = {64, 2, 0}}, k, v); // expected-error {{launch block dimension z is 0; every dimension must be at least 1}}
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
