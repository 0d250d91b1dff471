// [[offload::out]] on a span of const elements: the kernel cannot write them.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

// CHECK: param-out-const-span.cpp:[[@LINE+1]]:66: error: 'offload::out' on parameter 'v' of const type 'std::span<const int>': the kernel cannot write it; drop 'const' or drop 'offload::out'
[[offload::kernel]] void f([[offload::out]] std::span<const int> v) {} // expected-error {{'offload::out' on parameter 'v' of const type 'std::span<const int>': the kernel cannot write it; drop 'const' or drop 'offload::out'}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
