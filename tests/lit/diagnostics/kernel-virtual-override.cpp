// Virtual kernels, also when the virtual comes from a base class.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s
// RUN: %if rewriter %{ not %offload-rewrite %s -- -std=c++20 -include offload/offload.hpp -I%shim-include -fno-caret-diagnostics 2>&1 | FileCheck %s %}

struct Base {
  virtual void run(int);
};
struct Derived : Base {
  // CHECK: kernel-virtual-override.cpp:[[@LINE+1]]:28: error: offload kernel 'run' cannot be virtual
  [[offload::kernel]] void run(int) override; // expected-error {{offload kernel 'run' cannot be virtual}}
};
void Derived::run(int) {}
