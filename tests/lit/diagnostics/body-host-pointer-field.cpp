// A pointer field of a kernel parameter's class is copied as bytes: fine
// while no device code reads it; a read, here in a helper the kernel calls,
// is an error at the read, naming the field and what to use instead.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

struct Table {
  std::span<const float> values;
  const float *weights; // expected-note {{field 'weights' declared here}}
  const char *name;     // never read on the device: fine
  int n;
};
float weight(const Table &t, int i) {
  // CHECK: body-host-pointer-field.cpp:[[@LINE+1]]:12: error: kernel 'sum' reads field 'weights' of 'Table', a pointer copied to the device as bytes: the device cannot follow a host address; make it a 'std::span' field
  return t.weights[i]; // expected-error {{kernel 'sum' reads field 'weights' of 'Table', a pointer copied to the device as bytes: the device cannot follow a host address; make it a 'std::span' field}}
}
[[offload::kernel]] void sum(const Table &t, float &out) {
  for (int i = 0; i < t.n; ++i)
    out += t.values[i] * weight(t, i); // expected-note {{'weight' is called from 'sum' here}}
}
[[offload::kernel]] void count(Table t, int &out) { out = t.n; }
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
