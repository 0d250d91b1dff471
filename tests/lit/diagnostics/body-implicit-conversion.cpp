// Implicit conversions call functions too: a conversion operator, a
// converting constructor, an operator the compiler rewrites a comparison to.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

#include <compare>

struct Celsius {
  float v;
  operator float() const; // defined in another file
};
struct Meters {
  Meters(int); // defined in another file
  int v;
};
int length(Meters m) { return m.v; }
struct Version {
  int major;
  std::strong_ordering operator<=>(const Version &) const; // elsewhere
};

[[offload::kernel]] void k(int &x) {
  // CHECK: body-implicit-conversion.cpp:[[@LINE+1]]:13: error: kernel 'k' calls 'operator float', which has no definition in this translation unit: device code can only call functions compiled with it; define 'operator float' in this file or a header it includes, or declare it inside '#pragma omp declare target' when a device definition is linked in
  float f = Celsius{1.0f}; // expected-error {{kernel 'k' calls 'operator float', which has no definition in this translation unit}}
  // CHECK: body-implicit-conversion.cpp:[[@LINE+1]]:15: error: kernel 'k' calls 'Meters', which has no definition in this translation unit: device code can only call functions compiled with it; define 'Meters' in this file or a header it includes, or declare it inside '#pragma omp declare target' when a device definition is linked in
  x += length(x) + int(f); // expected-error {{kernel 'k' calls 'Meters', which has no definition in this translation unit}}
  // CHECK: body-implicit-conversion.cpp:[[@LINE+1]]:19: error: kernel 'k' calls 'operator<=>', which has no definition in this translation unit: device code can only call functions compiled with it; define 'operator<=>' in this file or a header it includes, or declare it inside '#pragma omp declare target' when a device definition is linked in
  x += Version{1} < Version{2}; // expected-error {{kernel 'k' calls 'operator<=>', which has no definition in this translation unit}}
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
