// The constructors and destructors of a kernel's local objects run on the
// device, the members' destructors behind an implicit one included, and so
// do the begin() and end() of a range-for.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

struct Timer {
  Timer(); // defined in another file
  int start = 0;
};
struct Handle {
  ~Handle(); // defined in another file
};
// CHECK: body-local-objects.cpp:[[@LINE+1]]:8: error: kernel 'members' calls '~Handle', which has no definition in this translation unit: device code can only call functions compiled with it; define '~Handle' in this file or a header it includes, or declare it inside '#pragma omp declare target' when a device definition is linked in
struct Holder { // an implicit destructor that calls ~Handle
  Handle h; // expected-error@-1 {{kernel 'members' calls '~Handle', which has no definition in this translation unit}}
  int v = 1;
};
struct Cells {
  const int *begin() const; // defined in another file
  const int *end() const { return nullptr; }
};

[[offload::kernel]] void members(int &x) {
  Holder h; // expected-note {{'~Holder' is called from 'members' here}}
  x += h.v;
}
[[offload::kernel]] void k(int &x) {
  // CHECK: body-local-objects.cpp:[[@LINE+1]]:9: error: kernel 'k' calls 'Timer', which has no definition in this translation unit: device code can only call functions compiled with it; define 'Timer' in this file or a header it includes, or declare it inside '#pragma omp declare target' when a device definition is linked in
  Timer t; // expected-error {{kernel 'k' calls 'Timer', which has no definition in this translation unit}}
  // CHECK: body-local-objects.cpp:[[@LINE+1]]:14: error: kernel 'k' calls 'begin', which has no definition in this translation unit: device code can only call functions compiled with it; define 'begin' in this file or a header it includes, or declare it inside '#pragma omp declare target' when a device definition is linked in
  for (int c : Cells{}) // expected-error {{kernel 'k' calls 'begin', which has no definition in this translation unit}}
    x += c;
  x += t.start;
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
