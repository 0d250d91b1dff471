// A grid or block with a zero component launches nothing; only an unset one
// (all components 0) is the default shape (offload/launch.hpp). An explicit
// y or z > 1 with a zero x is a mistake either way.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

[[offload::kernel]] void k(std::span<float> v) {}

void host(std::span<float> v) {
  // CHECK: launch-ignored-dimension.cpp:[[@LINE+1]]:36: error: launch grid.x is 0 while grid.y is 4: a grid with a zero component launches nothing; set grid.x, or leave the grid unset for the default shape
  offload(ofld::launch{.grid = {0, 4}}, k, v); // expected-error {{launch grid.x is 0 while grid.y is 4: a grid with a zero component launches nothing; set grid.x, or leave the grid unset for the default shape}}
  // CHECK: launch-ignored-dimension.cpp:[[@LINE+1]]:40: error: launch block.x is 0 while block.z is 8: a block with a zero component launches nothing; set block.x, or leave the block unset for the default shape
  offload(ofld::launch{.block = {0, 1, 8}}, k, v); // expected-error {{launch block.x is 0 while block.z is 8: a block with a zero component launches nothing}}
  // CHECK: launch-ignored-dimension.cpp:[[@LINE+1]]:43: error: launch grid.x is 0 while grid.z is 3: a grid with a zero component launches nothing; set grid.x, or leave the grid unset for the default shape
  const ofld::launch shape{.grid = {0, 1, 3}};
  offload(shape, k, v); // expected-error@-1 {{launch grid.x is 0 while grid.z is 3: a grid with a zero component launches nothing}}
  // Not reported: a zero x with y and z left at 1.
  offload(ofld::launch{.grid = {0}, .block = {0}}, k, v);
  offload(ofld::launch{.block = {128}}, k, v);
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
