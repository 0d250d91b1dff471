// What offload-rewrite cannot spell, with its own rows of Diagnostics.def:
// valid for the plugin, refused by the rewriter at the call (a dependent
// call is left as it is, with a warning). The rewriter
// runs with -verify too (its diagnostics are the translation unit's).
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify=plugin %s
// RUN: %if rewriter %{ not %rewrite-errors -Xclang -verify 2>&1 | FileCheck %s --implicit-check-not=error: %}
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefix=REWRITE --implicit-check-not=error: %}
// plugin-no-diagnostics
// CHECK: offload-rewrite: error: errors in the input; no file was changed

[[offload::kernel]] void fill(std::span<float> v) {}
[[offload::kernel]] void add3(int a, int b, int &c) { c = a + b; }

#define LAUNCH_FILL(v) offload(fill, v)
#define RUN(statement) statement
#define THREE 1, 2, r

template <class T> void generic(T &v) {
  // REWRITE: rewrite-unsupported-calls.cpp:[[@LINE+1]]:3: warning: offload() call depends on template parameters; offload-rewrite cannot derive its data movement for every instantiation and leaves it as it is (it runs on the CPU through offload.hpp's fallback): launch from non-dependent code to offload it
  offload(fill, v); // expected-warning {{offload() call depends on template parameters; offload-rewrite cannot derive its data movement for every instantiation and leaves it as it is (it runs on the CPU through offload.hpp's fallback): launch from non-dependent code to offload it}}
}

void host(std::span<float> v, int &r) {
  // REWRITE: rewrite-unsupported-calls.cpp:[[@LINE+1]]:3: error: offload() call comes from the body of macro 'LAUNCH_FILL'
  LAUNCH_FILL(v); // expected-error {{offload() call comes from the body of macro 'LAUNCH_FILL'; offload-rewrite can only rewrite calls spelled in the file (also as a macro argument): expand the macro by hand}}
  // REWRITE: rewrite-unsupported-calls.cpp:[[@LINE+1]]:4: error: offload() is used inside a larger expression
  (offload(fill, v), 0); // expected-error {{offload() is used inside a larger expression; offload-rewrite can only rewrite a call that is a statement of its own}}
  // REWRITE: rewrite-unsupported-calls.cpp:[[@LINE+1]]:17: error: argument 2 of offload() is spelled across macro boundaries
  offload(add3, THREE); // expected-error {{argument 2 of offload() is spelled across macro boundaries; offload-rewrite cannot copy its text}}
  // REWRITE: rewrite-unsupported-calls.cpp:[[@LINE+1]]:7: error: the rewritten offload() call would put a top-level comma into a macro argument
  RUN(offload({.grid = {4}, .block = {64}}, fill, v)); // expected-error {{the rewritten offload() call would put a top-level comma into a macro argument; move the call out of the macro or wrap the argument in parentheses}}
  RUN(offload(fill, v)); // fine: rewritten with _Pragma
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
