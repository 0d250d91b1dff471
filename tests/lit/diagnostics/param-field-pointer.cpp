// A trivially copyable struct still cannot carry a host address: its bytes
// copy, but the pointer in them means nothing on the device. Rejected by
// value and by reference, at any depth, naming the path to the field and
// pointing at it.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

struct Inner {
  int n;
  float *data; // expected-note 3 {{field 'data' declared here}}
};
struct Outer {
  int id;
  Inner inner;
};
// CHECK: param-field-pointer.cpp:[[@LINE+1]]:38: error: kernel parameter 'o': field 'inner.data' of 'Outer' is a pointer: the device cannot follow a host pointer; pass the array as a std::span parameter
[[offload::kernel]] void byval(Outer o) {} // expected-error {{kernel parameter 'o': field 'inner.data' of 'Outer' is a pointer: the device cannot follow a host pointer; pass the array as a std::span parameter}}
// CHECK: param-field-pointer.cpp:[[@LINE+1]]:44: error: kernel parameter 'o': field 'inner.data' of 'Outer' is a pointer: the device cannot follow a host pointer; pass the array as a std::span parameter
[[offload::kernel]] void cref(const Outer &o) {} // expected-error {{kernel parameter 'o': field 'inner.data' of 'Outer' is a pointer}}
// CHECK: param-field-pointer.cpp:[[@LINE+1]]:37: error: kernel parameter 'o': field 'inner.data' of 'Outer' is a pointer: the device cannot follow a host pointer; pass the array as a std::span parameter
[[offload::kernel]] void ref(Outer &o) {} // expected-error {{kernel parameter 'o': field 'inner.data' of 'Outer' is a pointer}}

// Members of an anonymous union are named as the struct's own.
struct Tagged {
  int tag;
  union {
    long bits;
    const char *text; // expected-note {{field 'text' declared here}}
  };
};
// CHECK: param-field-pointer.cpp:[[@LINE+1]]:40: error: kernel parameter 't': field 'text' of 'Tagged' is a pointer: the device cannot follow a host pointer; pass the array as a std::span parameter
[[offload::kernel]] void tagged(Tagged t) {} // expected-error {{kernel parameter 't': field 'text' of 'Tagged' is a pointer}}

// Plain data, and the pointer passed the right way, are fine.
struct Plain {
  int n;
  float scale[4];
};
[[offload::kernel]] void fine(Plain p, const Plain &q, std::span<float> data) {}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
