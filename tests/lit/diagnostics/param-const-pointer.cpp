// A pointer to const reads only: the suggestion is std::span<const T>.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

// CHECK: param-const-pointer.cpp:[[@LINE+1]]:44: error: kernel parameter 'in' has pointer type 'const double *': the size of the pointee is unknown; pass 'std::span<const double>' instead
[[offload::kernel]] void sum(const double *in, double &out) {} // expected-error {{kernel parameter 'in' has pointer type 'const double *': the size of the pointee is unknown; pass 'std::span<const double>' instead}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
