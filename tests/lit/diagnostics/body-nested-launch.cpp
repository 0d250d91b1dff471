// A launch from device code, also through a helper or a lambda.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

[[offload::kernel]] void leaf(int &x) {}
void spawn(int &x) {
  offload(leaf, x); // expected-error {{offload() inside kernel 'outer': kernels cannot launch kernels}}
}
[[offload::kernel]] void outer(int &x) {
  spawn(x); // expected-note {{'spawn' is called from 'outer' here}}
  [&] { offload(leaf, x); }(); // expected-error {{offload() inside kernel 'outer': kernels cannot launch kernels}}
}

// Errors in the order they are reported.
// CHECK: body-nested-launch.cpp:[[@LINE-4]]:9: error: offload() inside kernel 'outer': kernels cannot launch kernels
// CHECK: body-nested-launch.cpp:[[@LINE-9]]:3: error: offload() inside kernel 'outer': kernels cannot launch kernels
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
