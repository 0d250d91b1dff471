// A reference member: the struct is trivially copyable (its copy constructor
// is) and is copied as bytes, but the reference is a host address: reading
// it in device code is the error, at the read.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

struct View {
  const int &limit; // expected-note 2 {{field 'limit' declared here}}
  int count;
};
// CHECK: param-field-reference.cpp:[[@LINE+1]]:56: error: kernel 'byval' reads field 'limit' of 'View', a reference copied to the device as bytes: the device cannot follow a host address; make it a 'std::span' field
[[offload::kernel]] void byval(View v, int &n) { n = v.limit; } // expected-error {{kernel 'byval' reads field 'limit' of 'View', a reference copied to the device as bytes: the device cannot follow a host address; make it a 'std::span' field}}
// CHECK: param-field-reference.cpp:[[@LINE+1]]:73: error: kernel 'byref' reads field 'limit' of 'View', a reference
[[offload::kernel]] void byref(const View &v, int &n) { n = v.count + v.limit; } // expected-error {{kernel 'byref' reads field 'limit' of 'View', a reference}}
[[offload::kernel]] void unread(const View &v, int &n) { n = v.count; } // fine
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
