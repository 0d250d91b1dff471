// A checked dynamic_cast needs RTTI; an upcast does not.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

struct Base {
  virtual ~Base() = default;
};
struct Derived : Base {
  int value = 0;
};
Base &as_base(Derived &d) { return dynamic_cast<Base &>(d); } // upcast: static
[[offload::kernel]] void probe(int &out) {
  Derived d;
  Base &b = as_base(d);
  // CHECK: body-dynamic-cast.cpp:[[@LINE+1]]:14: error: kernel 'probe' cannot use 'dynamic_cast': run-time type information exists only in the host C++ runtime
  out = bool(dynamic_cast<Derived *>(&b)); // expected-error {{kernel 'probe' cannot use 'dynamic_cast': run-time type information exists only in the host C++ runtime}}
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
