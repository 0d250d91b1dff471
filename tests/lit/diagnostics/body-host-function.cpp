// A function the translation unit declares but does not define cannot be
// called from device code (the device link would fail naming a mangled
// symbol, even when another file defines it for the host). Functions defined
// further down, declare-target ones and the C/C++ library are fine.
#include <cstdio>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

int checksum(int);   // defined in some other file
int defined_later(int);
#pragma omp declare target
int device_provided(int); // a device definition is linked in
#pragma omp end declare target

[[offload::kernel]] void k(int &x) {
  // CHECK: body-host-function.cpp:[[@LINE+1]]:7: error: kernel 'k' calls 'checksum', which has no definition in this translation unit: device code can only call functions compiled with it; define 'checksum' in this file or a header it includes, or declare it inside '#pragma omp declare target' when a device definition is linked in
  x = checksum(x); // expected-error {{kernel 'k' calls 'checksum', which has no definition in this translation unit: device code can only call functions compiled with it; define 'checksum' in this file or a header it includes, or declare it inside '#pragma omp declare target' when a device definition is linked in}}
  x = defined_later(x) + device_provided(x);
  std::printf("%d\n", x);
  int *p = new int(x);
  x = *p;
  delete p;
}
int defined_later(int v) { return v + 1; }
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
