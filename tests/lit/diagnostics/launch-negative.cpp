// Negative launch dimensions known at compile time. A dimension takes any
// integer (no narrowing error for an `int`); a negative one, also through a
// cast to unsigned or a constant, is reported with the value it came from.
#include <cstdint>
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

[[offload::kernel]] void k(std::span<float> v) {}

void host(std::span<float> v) {
  offload(ofld::launch{.grid = {std::uint32_t(-1)}}, k, v); // expected-error {{launch grid.x is -1, which becomes 4294967295 as an unsigned dimension; launch dimensions cannot be negative}}
  constexpr int rows = -4;
  offload(ofld::launch{.grid = {8, unsigned(rows)}}, k, v); // expected-error {{launch grid.y is -4, which becomes 4294967292 as an unsigned dimension}}
  offload(ofld::launch{.block = {-1}}, k, v); // expected-error {{launch block.x is -1, which becomes 18446744073709551615}}
}

// Errors in the order they are reported.
// CHECK: launch-negative.cpp:[[@LINE-7]]:33: error: launch grid.x is -1, which becomes 4294967295 as an unsigned dimension; launch dimensions cannot be negative
// CHECK: launch-negative.cpp:[[@LINE-6]]:36: error: launch grid.y is -4, which becomes 4294967292 as an unsigned dimension; launch dimensions cannot be negative
// CHECK: launch-negative.cpp:[[@LINE-6]]:34: error: launch block.x is -1, which becomes 18446744073709551615 as an unsigned dimension; launch dimensions cannot be negative
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
