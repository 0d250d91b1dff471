// A struct of spans whose span field is private, or reached through a
// protected member or a private base: the plugin lowers it (it reads the
// object's layout), offload-rewrite maps each span field by its name at the
// call and refuses the parameter (RewriteHiddenSpanField), naming the
// field. A struct whose span fields are all public is lowered (the call in
// `fine`).
#include <cstddef>
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify=plugin %s
// RUN: %if rewriter %{ not %rewrite-errors -Xclang -verify 2>&1 | FileCheck %s --implicit-check-not=error: %}
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefix=REWRITE --implicit-check-not=error: %}
// plugin-no-diagnostics
// CHECK: offload-rewrite: error: errors in the input; no file was changed

class Buffer {
  std::span<float> v;

public:
  explicit Buffer(std::span<float> s) : v(s) {}
  float &operator[](std::size_t i) const { return v[i]; }
};

struct Inner {
  std::span<const float> x;
};
class Wrapped {
protected:
  Inner in;

public:
  float at(std::size_t i) const { return in.x[i]; }
};
struct Holder {
  std::span<float> y;
};
struct Derived : private Holder {
  float &at(std::size_t i) const { return y[i]; }
};
struct Open {
  std::span<float> z;
};

[[offload::kernel]] void bump(Buffer b) { b[ofld::global_id()] += 1.0f; }
[[offload::kernel]] void readAt(const Wrapped &w, std::span<float> r) {
  r[ofld::global_id()] = w.at(ofld::global_id());
}
[[offload::kernel]] void inc(Derived &d) { d.at(ofld::global_id()) += 1.0f; }
[[offload::kernel]] void fillOpen(Open o) { o.z[ofld::global_id()] = 1.0f; }

void fine(std::span<float> s) {
  offload(ofld::launch{.grid = {4}}, fillOpen, Open{s});
}

void host(std::span<float> s, const Wrapped &w, Derived &d) {
  // REWRITE: rewrite-hidden-span-field.cpp:[[@LINE+1]]:44: error: offload-rewrite cannot lower kernel parameter 'b': its std::span field 'v' is not public (a private or protected member or base on the way), and the rewritten call maps each span field by its name; make it public, or pass the spans as parameters of their own
  offload(ofld::launch{.grid = {4}}, bump, Buffer(s)); // expected-error {{offload-rewrite cannot lower kernel parameter 'b': its std::span field 'v' is not public (a private or protected member or base on the way), and the rewritten call maps each span field by its name; make it public, or pass the spans as parameters of their own}}
  // REWRITE: rewrite-hidden-span-field.cpp:[[@LINE+1]]:46: error: offload-rewrite cannot lower kernel parameter 'w': its std::span field 'in.x' is not public
  offload(ofld::launch{.grid = {4}}, readAt, w, s); // expected-error {{offload-rewrite cannot lower kernel parameter 'w': its std::span field 'in.x' is not public}}
  // REWRITE: rewrite-hidden-span-field.cpp:[[@LINE+1]]:43: error: offload-rewrite cannot lower kernel parameter 'd': its std::span field 'Holder::y' is not public
  offload(ofld::launch{.grid = {4}}, inc, d); // expected-error {{offload-rewrite cannot lower kernel parameter 'd': its std::span field 'Holder::y' is not public}}
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
