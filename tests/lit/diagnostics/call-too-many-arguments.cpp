// More arguments than the kernel takes, reported at the first one too many
// (whether or not clang's overload resolution found a candidate for them).
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

[[offload::kernel]] void scale(float a, std::span<float> v) {}
void host(std::span<float> v) {
  // CHECK: call-too-many-arguments.cpp:[[@LINE+1]]:27: error: too many arguments to offload(): kernel 'scale' takes 2
  offload(scale, 2.0f, v, "label"); // expected-error {{too many arguments to offload(): kernel 'scale' takes 2}}
  // CHECK: call-too-many-arguments.cpp:[[@LINE+1]]:54: error: too many arguments to offload(): kernel 'scale' takes 2
  offload(ofld::launch{.grid = {4}}, scale, 2.0f, v, nullptr); // expected-error {{too many arguments to offload(): kernel 'scale' takes 2}}
  // CHECK: call-too-many-arguments.cpp:[[@LINE+1]]:27: error: too many arguments to offload(): kernel 'scale' takes 2
  offload(scale, 2.0f, v, 3, 4); // expected-error {{too many arguments to offload(): kernel 'scale' takes 2}}
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
