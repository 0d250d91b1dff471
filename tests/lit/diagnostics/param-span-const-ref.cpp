// A std::span taken by reference: only the span's header would move. The
// message and the fix-it name the span type to take by value instead, with
// the constness of its elements (and the parameter's attributes) kept.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s --check-prefix=FIXIT

// CHECK: param-span-const-ref.cpp:[[@LINE+1]]:58: error: kernel parameter 'v' takes a std::span by reference ('const std::span<const float> &'); take it by value, as 'std::span<const float>': a span is a view, and its elements are what moves
[[offload::kernel]] void f(const std::span<const float> &v) {} // expected-error {{kernel parameter 'v' takes a std::span by reference ('const std::span<const float> &'); take it by value, as 'std::span<const float>': a span is a view, and its elements are what moves}}
// FIXIT: fix-it:"{{.*}}param-span-const-ref.cpp":{[[@LINE-1]]:28-[[@LINE-1]]:58}:"std::span<const float> "
// CHECK: param-span-const-ref.cpp:[[@LINE+1]]:44: error: kernel parameter 'w' takes a std::span by reference ('std::span<int> &'); take it by value, as 'std::span<int>': a span is a view, and its elements are what moves
[[offload::kernel]] void g(std::span<int>& w) {} // expected-error {{kernel parameter 'w' takes a std::span by reference ('std::span<int> &'); take it by value, as 'std::span<int>'}}
// FIXIT: fix-it:"{{.*}}param-span-const-ref.cpp":{[[@LINE-1]]:28-[[@LINE-1]]:44}:"std::span<int> "
// CHECK: param-span-const-ref.cpp:[[@LINE+1]]:70: error: kernel parameter 'out' takes a std::span by reference ('const std::span<double> &'); take it by value, as 'std::span<double>': a span is a view, and its elements are what moves
[[offload::kernel]] void h([[offload::out]] const std::span<double> &out) {} // expected-error {{kernel parameter 'out' takes a std::span by reference ('const std::span<double> &'); take it by value, as 'std::span<double>'}}
// FIXIT: fix-it:"{{.*}}param-span-const-ref.cpp":{[[@LINE-1]]:45-[[@LINE-1]]:70}:"std::span<double> "
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
