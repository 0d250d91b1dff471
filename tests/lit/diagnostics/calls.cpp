// offload() calls the plugin rejects. (An argument of the wrong type is
// clang's own error: call-wrong-argument-type.cpp.)
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}


void plain(int) {}
[[offload::kernel]] void kern(int) {}
// CHECK: calls.cpp:[[@LINE+1]]:37: error: kernel parameter 'p' has pointer type 'float *': the size of the pointee is unknown; pass 'std::span<float>' instead
[[offload::kernel]] void bad(float *p) {} // expected-error {{kernel parameter 'p' has pointer type}}
[[offload::kernel]] void nested(int x) {
  // CHECK: calls.cpp:[[@LINE+1]]:3: error: offload() inside kernel 'nested': kernels cannot launch kernels
  offload(kern, x); // expected-error {{offload() inside kernel 'nested': kernels cannot launch kernels}}
}

void host(void (*fp)(int)) {
  // CHECK: calls.cpp:[[@LINE+1]]:11: error: 'plain' is not an offload kernel; mark it '{{\[\[}}offload::kernel{{\]\]}}'
  offload(plain, 1); // expected-error {{'plain' is not an offload kernel; mark it '[[offload::kernel]]'}}
  // CHECK: calls.cpp:[[@LINE+1]]:11: error: offload() needs a kernel named directly, not a function pointer whose target is unknown at compile time
  offload(fp, 1); // expected-error {{offload() needs a kernel named directly, not a function pointer whose target is unknown at compile time}}
  // CHECK: calls.cpp:[[@LINE+1]]:20: error: too many arguments to offload(): kernel 'kern' takes 1
  offload(kern, 1, "extra"); // expected-error {{too many arguments to offload(): kernel 'kern' takes 1}}
  // CHECK: calls.cpp:[[@LINE+1]]:11: error: cannot launch kernel 'bad': its declaration has errors
  offload(bad, nullptr); // expected-error {{cannot launch kernel 'bad': its declaration has errors}}
}

// Calls in templates are checked when instantiated, not before (also in
// call-template-instantiation.cpp); offload-rewrite leaves both dependent
// calls as they are, with a warning (REWRITE lines).
// REWRITE: calls.cpp:[[@LINE+1]]:51: warning: offload() call depends on template parameters; offload-rewrite cannot derive its data movement for every instantiation and leaves it as it is (it runs on the CPU through offload.hpp's fallback): launch from non-dependent code to offload it
template <class T> void never_instantiated(T t) { offload(plain, t); }
template <class T> void instantiated(T t) {
  // REWRITE: calls.cpp:[[@LINE+2]]:3: warning: offload() call depends on template parameters; offload-rewrite cannot derive its data movement for every instantiation and leaves it as it is (it runs on the CPU through offload.hpp's fallback): launch from non-dependent code to offload it
  // CHECK: calls.cpp:[[@LINE+1]]:11: error: 'plain' is not an offload kernel; mark it '{{\[\[}}offload::kernel{{\]\]}}'
  offload(plain, t); // expected-error {{'plain' is not an offload kernel}}
}
template void instantiated<int>(int);
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
