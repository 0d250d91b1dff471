// [[offload::out]] on a whole object of spans says nothing about its fields:
// it belongs on the span fields the kernel only writes.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

struct Result {
  std::span<float> values;
  [[offload::out]] std::span<int> flags; // the right place
};
// CHECK: param-out-aggregate.cpp:[[@LINE+1]]:56: error: 'offload::out' on parameter 'r' of class type 'Result': mark the std::span fields the kernel only writes '{{\[\[offload::out\]\]}}' instead
[[offload::kernel]] void fill([[offload::out]] Result &r) {} // expected-error {{'offload::out' on parameter 'r' of class type 'Result': mark the std::span fields the kernel only writes '[[offload::out]]' instead}}
[[offload::kernel]] void fine(Result &r) {}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
