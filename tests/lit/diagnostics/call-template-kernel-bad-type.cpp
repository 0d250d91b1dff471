// A kernel template is checked per instantiation: launched with a pointer
// type, the parameter is reported at the template (in the instantiation) and
// the launch refuses it; other instantiations are fine.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s
// RUN: %if rewriter %{ not %offload-rewrite %s -- -std=c++20 -include offload/offload.hpp -I%shim-include -fno-caret-diagnostics 2>&1 | FileCheck %s %}

// CHECK: call-template-kernel-bad-type.cpp:[[@LINE+1]]:51: error: kernel parameter 'value' has pointer type 'int *'
template <class T> [[offload::kernel]] void set(T value, std::span<T> out) {} // expected-error {{kernel parameter 'value' has pointer type 'int *'}} expected-error {{kernel parameter 'out' has pointer type 'int *'}}

void host(std::span<int> i, std::span<int *> p) {
  offload(set<int>, 1, i);
  // CHECK: call-template-kernel-bad-type.cpp:[[@LINE+1]]:11: error: cannot launch kernel 'set<int *>'
  offload(set<int *>, nullptr, p); // expected-error {{cannot launch kernel 'set<int *>': its declaration has errors}}
}
