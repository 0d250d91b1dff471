// A class-specific operator new or delete is what `new T` and `delete p`
// call in device code: without a definition in this file, it cannot run
// there. The global ones (and classes with defined ones) are fine.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

#include <cstddef>
#include <cstdlib>

struct Pooled {
  int v;
  static void *operator new(std::size_t); // a host pool, defined elsewhere
  static void operator delete(void *);
};
struct Arena {
  int v;
  static void *operator new[](std::size_t);
  static void operator delete[](void *) {}
};
struct Defined {
  int v;
  static void *operator new(std::size_t n) { return std::malloc(n); }
  static void operator delete(void *p) { std::free(p); }
};

[[offload::kernel]] void k(int &x) {
  // CHECK: body-class-operator-new.cpp:[[@LINE+1]]:15: error: kernel 'k' calls 'operator new', which has no definition in this translation unit: device code can only call functions compiled with it; define 'operator new' in this file or a header it includes, or declare it inside '#pragma omp declare target' when a device definition is linked in
  Pooled *p = new Pooled{x}; // expected-error {{kernel 'k' calls 'operator new', which has no definition in this translation unit}}
  x = p->v;
  // CHECK: body-class-operator-new.cpp:[[@LINE+1]]:3: error: kernel 'k' calls 'operator delete', which has no definition in this translation unit: device code can only call functions compiled with it; define 'operator delete' in this file or a header it includes, or declare it inside '#pragma omp declare target' when a device definition is linked in
  delete p; // expected-error {{kernel 'k' calls 'operator delete', which has no definition in this translation unit}}
  // CHECK: body-class-operator-new.cpp:[[@LINE+1]]:14: error: kernel 'k' calls 'operator new[]', which has no definition in this translation unit: device code can only call functions compiled with it; define 'operator new[]' in this file or a header it includes, or declare it inside '#pragma omp declare target' when a device definition is linked in
  Arena *a = new Arena[4]; // expected-error {{kernel 'k' calls 'operator new[]', which has no definition in this translation unit}}
  delete[] a;
  Defined *d = new Defined{x};
  delete d;
  int *i = new int(x);
  delete i;
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
