// [[offload::in]] on a whole object of spans: its span fields move as their
// types say, so "copy in, never back" has no one meaning for the object; a
// span the kernel writes but need not copy back is a parameter of its own.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

struct State {
  std::span<const float> in;
  std::span<float> scratch;
};
// CHECK: param-in-aggregate.cpp:[[@LINE+1]]:54: error: 'offload::in' on parameter 's' of class type 'State': its std::span fields move as their types say; pass a span the kernel writes but need not copy back as its own '{{\[\[offload::in\]\]}}' parameter
[[offload::kernel]] void step([[offload::in]] State &s) {} // expected-error {{'offload::in' on parameter 's' of class type 'State': its std::span fields move as their types say; pass a span the kernel writes but need not copy back as its own '[[offload::in]]' parameter}}
[[offload::kernel]] void fine(const State &s, [[offload::in]] std::span<float> scratch) {}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
