// An array of pointers: each element would point into host memory.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

// CHECK: param-array-of-pointers.cpp:[[@LINE+1]]:38: error: kernel parameter 'a' has pointer type 'int *[4]': the size of the pointee is unknown; pass 'std::span<int>' instead
[[offload::kernel]] void ptrs(int *(&a)[4]) {} // expected-error {{kernel parameter 'a' has pointer type 'int *[4]': the size of the pointee is unknown; pass 'std::span<int>' instead}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
