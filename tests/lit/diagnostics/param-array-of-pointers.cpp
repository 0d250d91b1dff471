// An array of pointers: each element would point into host memory.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s
// RUN: %if rewriter %{ not %offload-rewrite %s -- -std=c++20 -include offload/offload.hpp -I%shim-include -fno-caret-diagnostics 2>&1 | FileCheck %s %}

// CHECK: param-array-of-pointers.cpp:[[@LINE+1]]:38: error: kernel parameter 'a' has pointer type
[[offload::kernel]] void ptrs(int *(&a)[4]) {} // expected-error {{kernel parameter 'a' has pointer type 'int *[4]': the size of the pointee is unknown; pass 'std::span<int>' instead}}
