// A polymorphic class by value carries a host vtable pointer too.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s
// RUN: %if rewriter %{ not %offload-rewrite %s -- -std=c++20 -include offload/offload.hpp -I%shim-include -fno-caret-diagnostics 2>&1 | FileCheck %s %}

struct Shape {
  virtual float area() const { return 0; }
  float w = 1, h = 1;
};
// CHECK: param-polymorphic-value.cpp:[[@LINE+1]]:37: error: kernel parameter 's' refers to polymorphic class 'Shape'
[[offload::kernel]] void area(Shape s, float &out) {} // expected-error {{kernel parameter 's' refers to polymorphic class 'Shape': its vtable pointer is not valid on the device}}
