// A span of pointers moves the pointers, not what they point to.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s
// RUN: %if rewriter %{ not %offload-rewrite %s -- -std=c++20 -include offload/offload.hpp -I%shim-include -fno-caret-diagnostics 2>&1 | FileCheck %s %}

// CHECK: param-span-of-pointers.cpp:[[@LINE+1]]:50: error: kernel parameter 'rows' has pointer type
[[offload::kernel]] void rows(std::span<float *> rows) {} // expected-error {{kernel parameter 'rows' has pointer type 'float *': the size of the pointee is unknown; pass 'std::span<float>' instead}}
