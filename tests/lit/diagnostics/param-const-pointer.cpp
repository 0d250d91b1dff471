// A pointer to const: the fix names std::span<const T>.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s
// RUN: %if rewriter %{ not %offload-rewrite %s -- -std=c++20 -include offload/offload.hpp -I%shim-include -fno-caret-diagnostics 2>&1 | FileCheck %s %}

// CHECK: param-const-pointer.cpp:[[@LINE+1]]:44: error: kernel parameter 'in' has pointer type
[[offload::kernel]] void sum(const double *in, double &out) {} // expected-error-re {{kernel parameter 'in' has pointer type 'const double *': the size of the pointee is unknown; pass 'std::span<{{(const )?}}double>' instead}}
