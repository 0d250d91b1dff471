// The plugin needs OpenMP offloading.
// RUN: not %clangxx -std=c++20 %plugin -fsyntax-only %s 2>&1 | FileCheck %s
// CHECK: error: the offload plugin needs '-fopenmp' and an offload target
void f() {}
