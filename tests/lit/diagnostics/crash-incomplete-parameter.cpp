// Regression test for a crash the fuzzer found (fuzz/README.md): kernels
// declared while a parameter type is not complete yet. The plugin computed
// the layout of std::span<const double> before it was instantiated (crash),
// and called a class template specialisation that was merely not instantiated
// yet "not trivially copyable" (valid code rejected).
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -fno-crash-diagnostics -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

#include <span>

[[offload::kernel]] void decl_only(std::span<const double> x);

template <class T> struct W { T t; };
[[offload::kernel]] void fwd(W<int> w);
[[offload::kernel]] void fwd(W<int> w) {}

struct Later;
[[offload::kernel]] void later(const Later &l);
struct Later { int v; };
[[offload::kernel]] void later(const Later &l) {}

struct Never;
// CHECK: crash-incomplete-parameter.cpp:[[@LINE+1]]:45: error: kernel parameter 'n' has incomplete type 'const Never &': its size is unknown here; define the type before the kernel is defined or launched
[[offload::kernel]] void never(const Never &n); // expected-error {{kernel parameter 'n' has incomplete type 'const Never &': its size is unknown here; define the type before the kernel is defined or launched}}

void host(Never &n, std::span<const double> d, W<int> w) {
  offload(decl_only, d);
  offload(fwd, w);
  // CHECK: crash-incomplete-parameter.cpp:[[@LINE+1]]:11: error: cannot launch kernel 'never': its declaration has errors
  offload(never, n); // expected-error {{cannot launch kernel 'never': its declaration has errors}}
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
