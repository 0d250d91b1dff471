// [[offload::out]] on a span of const elements: the kernel cannot write them.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s
// RUN: %if rewriter %{ not %offload-rewrite %s -- -std=c++20 -include offload/offload.hpp -I%shim-include -fno-caret-diagnostics 2>&1 | FileCheck %s %}

// CHECK: param-out-const-span.cpp:[[@LINE+1]]:66: error: 'offload::out' on parameter 'v' of const type
[[offload::kernel]] void f([[offload::out]] std::span<const int> v) {} // expected-error {{'offload::out' on parameter 'v' of const type 'std::span<const int>': the kernel cannot write it; drop 'const' or drop 'offload::out'}}
