// A std::span as the element of a span: the span parameter rule maps the
// viewed elements, a span among them would be copied as a host pointer and
// a size. (A span field of a class parameter moves by its own type:
// e2e/struct_of_spans.test.)
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

struct Batch {
  std::span<float> values;
  int n;
};
[[offload::kernel]] void batch(const Batch &b) {} // fine: the SpanFields row
// CHECK: param-field-span.cpp:[[@LINE+1]]:65: error: kernel parameter 'r': each element of 'std::span<const std::span<float>>' is a std::span: the device cannot follow the host pointer inside it; pass the span as a parameter of its own
[[offload::kernel]] void rows(std::span<const std::span<float>> r) {} // expected-error {{kernel parameter 'r': each element of 'std::span<const std::span<float>>' is a std::span: the device cannot follow the host pointer inside it; pass the span as a parameter of its own}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
