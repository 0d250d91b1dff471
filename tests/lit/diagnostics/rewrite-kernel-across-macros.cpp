// A kernel declaration that starts inside one macro expansion and ends in
// the file: offload-rewrite cannot bracket it with '#pragma omp declare
// target'. Valid for the plugin.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify=plugin %s
// RUN: %if rewriter %{ not %rewrite-errors -Xclang -verify 2>&1 | FileCheck %s --implicit-check-not=error: %}
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefix=REWRITE --implicit-check-not=error: %}
// plugin-no-diagnostics
// CHECK: offload-rewrite: error: errors in the input; no file was changed

#define COUNTED_KERNEL(name) int name##_calls; [[offload::kernel]] void name(

// REWRITE: rewrite-kernel-across-macros.cpp:[[@LINE+1]]:16: error: cannot place '#pragma omp declare target' around kernel 'step': its declaration is spelled across macro boundaries
COUNTED_KERNEL(step) int &x) { x = 2; } // expected-error {{cannot place '#pragma omp declare target' around kernel 'step': its declaration is spelled across macro boundaries}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
