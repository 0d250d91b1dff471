// Default arguments and default member initialisers run where they are
// used: what they call is checked, reported where it is written, with a
// note at the use in device code.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

int host_seed(); // defined in another file
// CHECK: body-default-argument.cpp:[[@LINE+1]]:20: error: kernel 'k' calls 'host_seed', which has no definition in this translation unit: device code can only call functions compiled with it; define 'host_seed' in this file or a header it includes, or declare it inside '#pragma omp declare target' when a device definition is linked in
int stride(int s = host_seed()) { return s; } // expected-error {{kernel 'k' calls 'host_seed', which has no definition in this translation unit}}
struct Options {
  // CHECK: body-default-argument.cpp:[[@LINE+1]]:15: error: kernel 'k' calls 'host_seed', which has no definition in this translation unit: device code can only call functions compiled with it; define 'host_seed' in this file or a header it includes, or declare it inside '#pragma omp declare target' when a device definition is linked in
  int level = host_seed(); // expected-error {{kernel 'k' calls 'host_seed', which has no definition in this translation unit}}
  int width = 4;
};
int twice(int v = 2) { return 2 * v; }

[[offload::kernel]] void k(int &x) {
  x += stride(); // expected-note {{default argument of parameter 's' used here}}
  x += stride(3) + twice();
  Options o{}; // expected-note {{default initialiser of field 'level' used here}}
  x += o.level + o.width;
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
