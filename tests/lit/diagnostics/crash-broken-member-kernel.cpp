// Regression test for the fuzzer's reduced input: a static member kernel
// whose parameter list does not parse; its span parameter type was never
// instantiated and the plugin crashed computing its layout.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -fno-crash-diagnostics -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

#include <span>

// CHECK: crash-broken-member-kernel.cpp:[[@LINE+3]]:72: error: expected parameter declarator
// CHECK: crash-broken-member-kernel.cpp:[[@LINE+2]]:72: error: expected ')'
// CHECK: crash-broken-member-kernel.cpp:[[@LINE+1]]:71: error: expected ';' at end of declaration list
struct S { [[offload::kernel]] static void k(std::span<const float> x, }; // expected-error {{expected parameter declarator}} expected-error {{expected ')'}} expected-note {{to match this '('}} expected-error {{expected ';' at end of declaration list}}

// Errors in the order they are reported.
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
