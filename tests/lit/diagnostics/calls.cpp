// offload() calls the plugin rejects.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s

#include <span>

void plain(int) {}
[[offload::kernel]] void kern(int) {}
[[offload::kernel]] void bad(float *p) {} // expected-error {{kernel parameter 'p' has pointer type}}
[[offload::kernel]] void nested(int x) {
  offload(kern, x); // expected-error {{offload() inside kernel 'nested': kernels cannot launch kernels}}
}

void host(void (*fp)(int), std::span<int> s) {
  offload(plain, 1); // expected-error {{'plain' is not an offload kernel; mark it '[[offload::kernel]]'}}
  offload(fp, 1); // expected-error {{offload() needs a kernel named directly, not a function pointer whose target is unknown at compile time}}
  offload(kern, 1, "extra"); // expected-error {{too many arguments to offload(): kernel 'kern' takes 1}}
  offload(bad, nullptr); // expected-error {{cannot launch kernel 'bad': its declaration has errors}}
  offload(kern, s); // expected-error {{no matching function for call to 'offload'}}
  // expected-note@* 2 {{candidate}}
}

// Calls in templates are checked when instantiated, not before.
template <class T> void never_instantiated(T t) { offload(plain, t); }
template <class T> void instantiated(T t) {
  offload(plain, t); // expected-error {{'plain' is not an offload kernel}}
}
template void instantiated<int>(int);
