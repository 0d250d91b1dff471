// Negative launch dimensions known at compile time. A negative literal in the
// braces is already a narrowing error; through a cast or a constant it becomes
// a huge unsigned dimension, which is reported with the value it came from.
#include <cstdint>
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s

[[offload::kernel]] void k(std::span<float> v) {}

void host(std::span<float> v) {
  // CHECK: launch-negative.cpp:[[@LINE+1]]:33: error: launch grid.x is -1, which becomes 4294967295 as an unsigned dimension
  offload(ofld::launch{.grid = {std::uint32_t(-1)}}, k, v); // expected-error {{launch grid.x is -1, which becomes 4294967295 as an unsigned dimension; launch dimensions cannot be negative}}
  constexpr int rows = -4;
  offload(ofld::launch{.grid = {8, unsigned(rows)}}, k, v); // expected-error {{launch grid.y is -4, which becomes 4294967292 as an unsigned dimension}}
  offload(ofld::launch{.block = {-1}}, k, v); // expected-error {{constant expression evaluates to -1 which cannot be narrowed}} expected-note {{insert an explicit cast}} expected-error {{launch block.x is -1, which becomes 4294967295}}
}
