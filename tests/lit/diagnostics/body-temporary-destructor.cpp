// A temporary's destructor runs on the device at the end of the full
// expression: it is checked like a call, at the temporary.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

void release(int); // defined in another file, for the host only
struct Undefined {
  int v;
  ~Undefined(); // no definition in this file
};
struct Logged {
  int v;
  ~Logged();
};
Undefined make_undefined(int v) { return Undefined{v}; }
Logged make_logged(int v) { return Logged{v}; }

[[offload::kernel]] void k(int &x) {
  // CHECK: body-temporary-destructor.cpp:[[@LINE+1]]:7: error: kernel 'k' calls '~Undefined', which has no definition in this translation unit: device code can only call functions compiled with it; define '~Undefined' in this file or a header it includes, or declare it inside '#pragma omp declare target' when a device definition is linked in
  x = make_undefined(x).v; // expected-error {{kernel 'k' calls '~Undefined', which has no definition in this translation unit}}
  x += make_logged(x).v; // expected-note {{'~Logged' is called from 'k' here}}
}
Logged::~Logged() {
  // CHECK: body-temporary-destructor.cpp:[[@LINE+1]]:3: error: kernel 'k' calls 'release', which has no definition in this translation unit: device code can only call functions compiled with it; define 'release' in this file or a header it includes, or declare it inside '#pragma omp declare target' when a device definition is linked in
  release(v); // expected-error {{kernel 'k' calls 'release', which has no definition in this translation unit}}
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
