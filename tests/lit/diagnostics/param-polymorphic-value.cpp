// A polymorphic class by value carries a host vtable pointer too.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

struct Shape {
  virtual float area() const { return 0; }
  float w = 1, h = 1;
};
// CHECK: param-polymorphic-value.cpp:[[@LINE+1]]:37: error: kernel parameter 's' refers to polymorphic class 'Shape': its vtable pointer is not valid on the device
[[offload::kernel]] void area(Shape s, float &out) {} // expected-error {{kernel parameter 's' refers to polymorphic class 'Shape': its vtable pointer is not valid on the device}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
