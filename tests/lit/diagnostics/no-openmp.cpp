// The plugin needs OpenMP offloading. An error of the command line, so it has
// no location. offload-rewrite has no counterpart: it adds -fopenmp itself
// (what it writes is OpenMP), and its output needs no plugin.
// RUN: %clangxx -std=c++20 %plugin -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx -std=c++20 %plugin -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
// CHECK: error: the offload plugin needs '-fopenmp' and an offload target ('--offload-arch=sm_90' or '-fopenmp-targets=x86_64-pc-linux-gnu')
// expected-error@*:* {{the offload plugin needs '-fopenmp' and an offload target ('--offload-arch=sm_90' or '-fopenmp-targets=x86_64-pc-linux-gnu')}}
void f() {}
