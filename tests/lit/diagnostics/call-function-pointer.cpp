// offload() must know the kernel at compile time: a function pointer whose
// target is chosen at run time is refused, even when every possible target
// is a kernel.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

[[offload::kernel]] void fill(std::span<float> v) {}
[[offload::kernel]] void clear(std::span<float> v) {}
using KernelPtr = void (*)(std::span<float>);
KernelPtr pick(bool fast);

void host(std::span<float> s, bool fast) {
  void (*fp)(std::span<float>) = pick(fast);
  // CHECK: call-function-pointer.cpp:[[@LINE+1]]:11: error: offload() needs a kernel named directly, not a function pointer whose target is unknown at compile time
  offload(fp, s); // expected-error {{offload() needs a kernel named directly, not a function pointer whose target is unknown at compile time}}
  KernelPtr table[] = {fill, clear};
  // CHECK: call-function-pointer.cpp:[[@LINE+1]]:11: error: offload() needs a kernel named directly, not a function pointer whose target is unknown at compile time
  offload(table[fast], s); // expected-error {{offload() needs a kernel named directly}}
  // CHECK: call-function-pointer.cpp:[[@LINE+1]]:11: error: offload() needs a kernel named directly, not a function pointer whose target is unknown at compile time
  offload(fast ? fill : clear, s); // expected-error {{offload() needs a kernel named directly}}
  offload(fill, s); // named directly: fine
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
