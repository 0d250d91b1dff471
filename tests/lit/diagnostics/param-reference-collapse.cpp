// "Reference to reference" is not expressible in C++: through a typedef or a
// template argument the references collapse (T& & and T&& & are T&, T&& && is
// T&&), and the kernel sees the collapsed type. So an lvalue reference that
// came from a typedef or template is an ordinary T& (copied both ways) and
// only what collapses to an rvalue reference is rejected, at the kernel, or
// for a template at the instantiation that is launched.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

using IntRef = int &;
using IntRRef = int &&;
[[offload::kernel]] void lref(IntRef &x) {}    // int& : accepted
[[offload::kernel]] void lref2(IntRRef &x) {}  // int& : accepted
// CHECK: param-reference-collapse.cpp:[[@LINE+1]]:41: error: kernel parameter 'x' is an rvalue reference 'int &&'; take 'const T&' to copy to the device or 'T&' to copy both ways
[[offload::kernel]] void rref(IntRRef &&x) {} // expected-error {{kernel parameter 'x' is an rvalue reference 'int &&'; take 'const T&' to copy to the device or 'T&' to copy both ways}}

// CHECK: param-reference-collapse.cpp:[[@LINE+1]]:53: error: kernel parameter 'x' is an rvalue reference 'int &&'; take 'const T&' to copy to the device or 'T&' to copy both ways
template <class T> [[offload::kernel]] void fwd(T &&x) {} // expected-error {{kernel parameter 'x' is an rvalue reference 'int &&'}}

void host(int v) {
  offload(fwd<int &>, v); // T = int&: int& && collapses to int&
  // CHECK: param-reference-collapse.cpp:[[@LINE+1]]:11: error: cannot launch kernel 'fwd<int>': its declaration has errors
  offload(fwd<int>, v);   // expected-error {{cannot launch kernel 'fwd<int>': its declaration has errors}}
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
