// A launch without a grid runs one thread per index the kernel's bounds
// check admits; a kernel that reads a thread index under no bound the call
// can compute gets no guess: an error at the launch, a note at the read.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

#include <span>

[[offload::kernel]] void unguarded(std::span<float> y) {
  y[ofld::global_id()] = 1; // expected-note 3 {{the thread index is read here before any bound on 'ofld::global_id(0)'}}
}

[[offload::kernel]] void read_first(std::span<const float> x,
                                    std::span<float> y) {
  std::size_t i = ofld::global_id();
  float v = x[i]; // expected-note {{the thread index is read here before any bound on 'ofld::global_id(0)'}}
  if (i < y.size())
    y[i] = v;
}

// A bound read from memory is not one a call can compute.
[[offload::kernel]] void from_memory(std::span<const int> n,
                                     std::span<float> y) {
  std::size_t i = ofld::global_id();
  if (i < std::size_t(n[0])) // expected-note {{the thread index is read here before any bound on 'ofld::global_id(0)'}}
    y[i] = 0;
}

// A helper that reads the index, called under no bound.
void helper(std::span<float> y) { y[ofld::global_id()] = 2; }
[[offload::kernel]] void via_helper(std::span<float> y) {
  helper(y); // expected-note {{the thread index is read here before any bound on 'ofld::global_id(0)'}}
}

// Rows bounded, columns not.
[[offload::kernel]] void rows_only(int rows, std::span<float> m) {
  std::size_t r = ofld::global_id(1), c = ofld::global_id(0);
  if (r < std::size_t(rows))
    m[r * 64 + c] = 0; // expected-note {{the thread index is read here before any bound on 'ofld::global_id(0)'}}
}

void run(std::span<float> y, std::span<const int> n, ofld::launch shape) {
  offload(unguarded, y); // expected-error {{launch of 'unguarded' gives no grid, and the kernel reads 'ofld::global_id(0)' with no bounds check this call can compute; give the shape (ofld::launch{.grid = ..., .block = ...}) or add a bounds check ('if (i < n)')}}
  offload(read_first, y, y); // expected-error {{launch of 'read_first' gives no grid}}
  offload(from_memory, n, y); // expected-error {{launch of 'from_memory' gives no grid}}
  offload(via_helper, y); // expected-error {{launch of 'via_helper' gives no grid}}
  offload(rows_only, 8, y); // expected-error {{launch of 'rows_only' gives no grid}}
  // A block alone leaves the grid to the bound.
  offload(ofld::launch{.block = {64}}, unguarded, y); // expected-error {{launch of 'unguarded' gives no grid}}
  offload(ofld::launch{.grid = {0, 0, 0}}, unguarded, y); // expected-error {{launch of 'unguarded' gives no grid}}
  // A grid is never second-guessed, and a shape known only when the
  // program runs is checked there.
  offload(ofld::launch{.grid = {4}, .block = {64}}, unguarded, y);
  offload(shape, unguarded, y);
}

// CHECK: launch-no-bound.cpp:[[@LINE-14]]:3: error: launch of 'unguarded' gives no grid, and the kernel reads 'ofld::global_id(0)' with no bounds check this call can compute; give the shape (ofld::launch{.grid = ..., .block = ...}) or add a bounds check ('if (i < n)')
// CHECK: launch-no-bound.cpp:[[@LINE-14]]:3: error: launch of 'read_first' gives no grid
// CHECK: launch-no-bound.cpp:[[@LINE-14]]:3: error: launch of 'from_memory' gives no grid
// CHECK: launch-no-bound.cpp:[[@LINE-14]]:3: error: launch of 'via_helper' gives no grid
// CHECK: launch-no-bound.cpp:[[@LINE-14]]:3: error: launch of 'rows_only' gives no grid
// CHECK: launch-no-bound.cpp:[[@LINE-13]]:3: error: launch of 'unguarded' gives no grid
// CHECK: launch-no-bound.cpp:[[@LINE-13]]:3: error: launch of 'unguarded' gives no grid
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
