// A trivially copyable struct may carry a host address: its bytes copy, but
// the pointer in them means nothing on the device. Reading it in device code
// is the error, at the read (by value and by reference, at any depth),
// naming the field and pointing at it.
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
// CHECK: param-field-pointer.cpp:[[@LINE+1]]:65: error: kernel 'byval' reads field 'data' of 'Inner', a pointer copied to the device as bytes: the device cannot follow a host address; make it a 'std::span' field
[[offload::kernel]] void byval(Outer o, float &x) { x = o.inner.data[0]; } // expected-error {{kernel 'byval' reads field 'data' of 'Inner', a pointer copied to the device as bytes: the device cannot follow a host address; make it a 'std::span' field}}
// CHECK: param-field-pointer.cpp:[[@LINE+1]]:70: error: kernel 'cref' reads field 'data' of 'Inner', a pointer
[[offload::kernel]] void cref(const Outer &o, bool &x) { x = o.inner.data; } // expected-error {{kernel 'cref' reads field 'data' of 'Inner', a pointer}}
// CHECK: param-field-pointer.cpp:[[@LINE+1]]:50: error: kernel 'ref' reads field 'data' of 'Inner', a pointer
[[offload::kernel]] void ref(Outer &o) { o.inner.data[0] = 1; } // expected-error {{kernel 'ref' reads field 'data' of 'Inner', a pointer}}
[[offload::kernel]] void unread(Outer &o) { o.inner.n = o.id; } // fine

// Members of an anonymous union are named as the struct's own.
struct Tagged {
  int tag;
  union {
    long bits;
    const char *text; // expected-note {{field 'text' declared here}}
  };
};
// CHECK: param-field-pointer.cpp:[[@LINE+1]]:60: error: kernel 'tagged' reads field 'text' of 'Tagged', a pointer
[[offload::kernel]] void tagged(Tagged t, char &c) { c = t.text[0]; } // expected-error {{kernel 'tagged' reads field 'text' of 'Tagged', a pointer}}

// Plain data, and the pointer passed the right way, are fine.
struct Plain {
  int n;
  float scale[4];
};
[[offload::kernel]] void fine(Plain p, const Plain &q, std::span<float> data) {}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
