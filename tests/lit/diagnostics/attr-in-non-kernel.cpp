// [[offload::in]] only means something on a kernel's parameter: on any other
// function's it would be silently ignored, so it is an error, as for
// [[offload::out]] (one check for both: KernelAttributes.cpp). On a kernel
// it must be on the first declaration, which decides what moves.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

// CHECK: attr-in-non-kernel.cpp:[[@LINE+1]]:14: error: 'offload::in' on parameter 'v' of 'plain', which is not an offload kernel: only a kernel's parameters are copied in; mark 'plain' '{{\[\[}}offload::kernel{{\]\]}}' or drop 'offload::in'
void plain([[offload::in]] std::span<float> v); // expected-error {{'offload::in' on parameter 'v' of 'plain', which is not an offload kernel: only a kernel's parameters are copied in; mark 'plain' '[[offload::kernel]]' or drop 'offload::in'}}
void plain(std::span<float> v) {}

// Kernels are fine, also with the attribute repeated.
[[offload::kernel]] void kernel([[offload::in]] std::span<float> v);
[[offload::kernel]] void kernel([[offload::in]] std::span<float> v) { v[0] = 1; }
[[offload::kernel]] void later(int &x); // expected-note {{kernel 'later' declared here}}
// CHECK: attr-in-non-kernel.cpp:[[@LINE+1]]:14: error: 'offload::in' on parameter 'x' of kernel 'later' must be on its first declaration as well: the first declaration decides what moves
void later([[offload::in]] int &x) { x = 2; } // expected-error {{'offload::in' on parameter 'x' of kernel 'later' must be on its first declaration as well: the first declaration decides what moves}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
