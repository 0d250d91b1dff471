// [[offload::in]] and [[offload::out]] on one parameter: in only and back
// only contradict each other; a plain 'T&' or 'std::span<T>' goes both ways.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

// CHECK: param-in-and-out.cpp:[[@LINE+1]]:75: error: parameter 'v' cannot be both 'offload::in' and 'offload::out'; drop both to copy it in and back
[[offload::kernel]] void f([[offload::in, offload::out]] std::span<float> v) {} // expected-error {{parameter 'v' cannot be both 'offload::in' and 'offload::out'; drop both to copy it in and back}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
