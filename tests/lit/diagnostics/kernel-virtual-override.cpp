// Virtual kernels, also when the virtual comes from a base class.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

struct Base {
  virtual void run(int);
};
struct Derived : Base {
  // CHECK: kernel-virtual-override.cpp:[[@LINE+1]]:28: error: offload kernel 'run' cannot be virtual
  [[offload::kernel]] void run(int) override; // expected-error {{offload kernel 'run' cannot be virtual}}
};
void Derived::run(int) {}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
