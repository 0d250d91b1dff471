// A static local in device code would be one copy shared by every thread of
// every launch, and nothing on the device runs a dynamic initialiser once:
// rejected unless it is a constant (constexpr, or const with a constant
// initialiser), which the device image holds like any constant.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

int seed(int v) { return v * 3; }

int counted(int v);

[[offload::kernel]] void k(int &x) {
  static constexpr int table[4] = {1, 2, 3, 4};
  static const int offset = 7;
  // CHECK: body-static-local.cpp:[[@LINE+1]]:20: error: kernel 'k' declares static local variable 'computed', whose initialiser is not a constant: every thread of every launch would share one copy and nothing on the device runs its initialiser; use a plain local for per-thread state, 'ofld::shared_array' for data shared by a block, a std::span parameter for data shared by all threads, or 'static constexpr' for a constant table
  static const int computed = seed(x); // expected-error {{kernel 'k' declares static local variable 'computed', whose initialiser is not a constant: every thread of every launch would share one copy and nothing on the device runs its initialiser; use a plain local for per-thread state, 'ofld::shared_array' for data shared by a block, a std::span parameter for data shared by all threads, or 'static constexpr' for a constant table}}
  x = counted(table[x % 4] + offset + computed); // expected-note {{'counted' is called from 'k' here}}
}

int counted(int v) {
  // CHECK: body-static-local.cpp:[[@LINE+1]]:14: error: kernel 'k' declares static local variable 'calls': every thread of every launch would share one copy; use a plain local for per-thread state, 'ofld::shared_array' for data shared by a block, a std::span parameter for data shared by all threads, or 'static constexpr' for a constant table
  static int calls = 0; // expected-error {{kernel 'k' declares static local variable 'calls': every thread of every launch would share one copy; use a plain local for per-thread state, 'ofld::shared_array' for data shared by a block, a std::span parameter for data shared by all threads, or 'static constexpr' for a constant table}}
  return v + ++calls;
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
