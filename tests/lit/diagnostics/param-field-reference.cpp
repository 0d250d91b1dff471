// A reference member: the struct is trivially copyable (its copy constructor
// is), but the reference is a host address.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

struct View {
  const int &limit; // expected-note 2 {{field 'limit' declared here}}
  int count;
};
// CHECK: param-field-reference.cpp:[[@LINE+1]]:37: error: kernel parameter 'v': field 'limit' of 'View' is a reference: the device cannot follow a host reference; pass the object as a parameter of its own ('const T&' or 'T&')
[[offload::kernel]] void byval(View v) {} // expected-error {{kernel parameter 'v': field 'limit' of 'View' is a reference: the device cannot follow a host reference; pass the object as a parameter of its own ('const T&' or 'T&')}}
// CHECK: param-field-reference.cpp:[[@LINE+1]]:44: error: kernel parameter 'v': field 'limit' of 'View' is a reference: the device cannot follow a host reference; pass the object as a parameter of its own ('const T&' or 'T&')
[[offload::kernel]] void byref(const View &v) {} // expected-error {{kernel parameter 'v': field 'limit' of 'View' is a reference}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
