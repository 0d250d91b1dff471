// A span by const reference is still a span by reference.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s
// RUN: %if rewriter %{ not %offload-rewrite %s -- -std=c++20 -include offload/offload.hpp -I%shim-include -fno-caret-diagnostics 2>&1 | FileCheck %s %}

// CHECK: param-span-const-ref.cpp:[[@LINE+1]]:58: error: kernel parameter 'v' takes a std::span by reference
[[offload::kernel]] void f(const std::span<const float> &v) {} // expected-error {{kernel parameter 'v' takes a std::span by reference ('const std::span<const float> &'); take the span by value: it is a view, and its elements are what moves}}
