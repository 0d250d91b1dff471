// A span of pointers moves the pointers, not what they point to.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

// CHECK: param-span-of-pointers.cpp:[[@LINE+1]]:50: error: kernel parameter 'rows' has pointer type 'float *': the size of the pointee is unknown; pass 'std::span<float>' instead
[[offload::kernel]] void rows(std::span<float *> rows) {} // expected-error {{kernel parameter 'rows' has pointer type 'float *': the size of the pointee is unknown; pass 'std::span<float>' instead}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
