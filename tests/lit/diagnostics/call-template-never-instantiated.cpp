// A template that is never instantiated is never checked, whatever its
// offload() calls name: no error from the plugin. offload-rewrite refuses the
// dependent call anyway (it rewrites text, the same for every instantiation).
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s --check-prefix=PLUGIN --allow-empty
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefix=REWRITE --implicit-check-not=error: %}
// expected-no-diagnostics
// PLUGIN-NOT: error:

void plain(std::span<float>) {}
template <class T> void never(T &t) {
  // REWRITE: call-template-never-instantiated.cpp:[[@LINE+1]]:3: error: offload() call depends on template parameters; offload-rewrite cannot derive its data movement for every instantiation: launch from non-dependent code or rewrite this call by hand
  offload(plain, t);
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
