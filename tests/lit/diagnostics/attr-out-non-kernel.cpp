// [[offload::out]] only means something on a kernel's parameter: on any other
// function's it would be silently ignored, so it is an error that says to mark
// the function a kernel or to drop the attribute. Reported once, where it is
// written (not again at redeclarations or template instantiations). On a
// kernel it must be on the first declaration, which decides what moves.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

// CHECK: attr-out-non-kernel.cpp:[[@LINE+1]]:14: error: 'offload::out' on parameter 'x' of 'plain', which is not an offload kernel: only a kernel's parameters are copied back; mark 'plain' '{{\[\[}}offload::kernel{{\]\]}}' or drop 'offload::out'
void plain([[offload::out]] int &x); // expected-error {{'offload::out' on parameter 'x' of 'plain', which is not an offload kernel: only a kernel's parameters are copied back; mark 'plain' '[[offload::kernel]]' or drop 'offload::out'}}
void plain(int &x) {}

struct Stats {
  // CHECK: attr-out-non-kernel.cpp:[[@LINE+1]]:23: error: 'offload::out' on parameter 'bins' of 'reset', which is not an offload kernel: only a kernel's parameters are copied back; mark 'reset' '{{\[\[}}offload::kernel{{\]\]}}' or drop 'offload::out'
  static void reset([[offload::out]] std::span<float> bins); // expected-error {{'offload::out' on parameter 'bins' of 'reset', which is not an offload kernel}}
};

// CHECK: attr-out-non-kernel.cpp:[[@LINE+1]]:32: error: 'offload::out' on parameter 'x' of 'fill', which is not an offload kernel: only a kernel's parameters are copied back; mark 'fill' '{{\[\[}}offload::kernel{{\]\]}}' or drop 'offload::out'
template <class T> void fill([[offload::out]] T &x) { x = T(); } // expected-error {{'offload::out' on parameter 'x' of 'fill', which is not an offload kernel}}
void use(int &i) { fill(i); }

// Kernels are fine, also with the attribute repeated.
[[offload::kernel]] void kernel([[offload::out]] int &x);
[[offload::kernel]] void kernel([[offload::out]] int &x) { x = 1; }
// The first declaration of a kernel decides what moves: the attribute
// cannot be added later.
[[offload::kernel]] void later(int &x); // expected-note {{kernel 'later' declared here}}
// CHECK: attr-out-non-kernel.cpp:[[@LINE+1]]:14: error: 'offload::out' on parameter 'x' of kernel 'later' must be on its first declaration as well: the first declaration decides what moves
void later([[offload::out]] int &x) { x = 2; } // expected-error {{'offload::out' on parameter 'x' of kernel 'later' must be on its first declaration as well: the first declaration decides what moves}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
