// Regression test for the fuzzer's reduced input: a static member kernel
// whose parameter list does not parse; its span parameter type was never
// instantiated and the plugin crashed computing its layout.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -fno-crash-diagnostics -Xclang -verify %s

#include <span>

struct S { [[offload::kernel]] static void k(std::span<const float> x, }; // expected-error {{expected parameter declarator}} expected-error {{expected ')'}} expected-note {{to match this '('}} expected-error {{expected ';' at end of declaration list}}
