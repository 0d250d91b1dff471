// A template that is never instantiated is never checked, whatever its
// offload() calls name: no error from the plugin. offload-rewrite leaves the
// dependent call as it is, with a warning (it rewrites text, the same for
// every instantiation), and gives the file the bridge include.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s --check-prefix=PLUGIN --allow-empty
// RUN: %if rewriter %{ %rewrite-errors > %t.out 2> %t.err %}
// RUN: %if rewriter %{ FileCheck %s --check-prefix=REWRITE --implicit-check-not=error: < %t.err %}
// expected-no-diagnostics
// PLUGIN-NOT: error:

void plain(std::span<float>) {}
template <class T> void never(T &t) {
  // REWRITE: call-template-never-instantiated.cpp:[[@LINE+1]]:3: warning: offload() call depends on template parameters; offload-rewrite cannot derive its data movement for every instantiation and leaves it as it is (it runs on the CPU through offload.hpp's fallback): launch from non-dependent code to offload it
  offload(plain, t);
}
// REWRITE: offload-rewrite: rewrote 0 calls in 1 file
