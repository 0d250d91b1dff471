// A kernel template is checked per instantiation: launched with a pointer
// type, the parameter is reported at the template (in the instantiation) and
// the launch refuses it; other instantiations are fine.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

// CHECK: call-template-kernel-bad-type.cpp:[[@LINE+2]]:51: error: kernel parameter 'value' has pointer type 'int *': the size of the pointee is unknown; pass 'std::span<int>' instead
// CHECK: call-template-kernel-bad-type.cpp:[[@LINE+1]]:71: error: kernel parameter 'out' has pointer type 'int *': the size of the pointee is unknown; pass 'std::span<int>' instead
template <class T> [[offload::kernel]] void set(T value, std::span<T> out) {} // expected-error {{kernel parameter 'value' has pointer type 'int *'}} expected-error {{kernel parameter 'out' has pointer type 'int *'}}

void host(std::span<int> i, std::span<int *> p) {
  offload(set<int>, 1, i);
  // CHECK: call-template-kernel-bad-type.cpp:[[@LINE+1]]:11: error: cannot launch kernel 'set<int *>': its declaration has errors
  offload(set<int *>, nullptr, p); // expected-error {{cannot launch kernel 'set<int *>': its declaration has errors}}
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
