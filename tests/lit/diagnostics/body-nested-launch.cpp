// A launch from device code, also through a helper or a lambda.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s

[[offload::kernel]] void leaf(int &x) {}
void spawn(int &x) {
  // CHECK: body-nested-launch.cpp:[[@LINE+1]]:3: error: offload() inside kernel 'outer': kernels cannot launch kernels
  offload(leaf, x); // expected-error {{offload() inside kernel 'outer': kernels cannot launch kernels}}
}
[[offload::kernel]] void outer(int &x) {
  spawn(x); // expected-note {{'spawn' is called from 'outer' here}}
  [&] { offload(leaf, x); }(); // expected-error {{offload() inside kernel 'outer': kernels cannot launch kernels}}
}
