// A zero x asks for the default shape (README: "unset or zero = default"),
// which ignores y and z: an explicit y or z > 1 with a zero x is a mistake.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

[[offload::kernel]] void k(std::span<float> v) {}

void host(std::span<float> v) {
  // CHECK: launch-ignored-dimension.cpp:[[@LINE+1]]:36: error: launch grid.x is 0, which asks for the default grid, so grid.y = 4 would be ignored; set grid.x as well
  offload(ofld::launch{.grid = {0, 4}}, k, v); // expected-error {{launch grid.x is 0, which asks for the default grid, so grid.y = 4 would be ignored; set grid.x as well}}
  // CHECK: launch-ignored-dimension.cpp:[[@LINE+1]]:40: error: launch block.x is 0, which asks for the default block, so block.z = 8 would be ignored; set block.x as well
  offload(ofld::launch{.block = {0, 1, 8}}, k, v); // expected-error {{launch block.x is 0, which asks for the default block, so block.z = 8 would be ignored}}
  // CHECK: launch-ignored-dimension.cpp:[[@LINE+1]]:43: error: launch grid.x is 0, which asks for the default grid, so grid.z = 3 would be ignored; set grid.x as well
  const ofld::launch shape{.grid = {0, 1, 3}};
  offload(shape, k, v); // expected-error@-1 {{launch grid.x is 0, which asks for the default grid, so grid.z = 3 would be ignored}}
  // Zero x with y and z left alone is the documented default.
  offload(ofld::launch{.grid = {0}, .block = {0}}, k, v);
  offload(ofld::launch{.block = {128}}, k, v);
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
