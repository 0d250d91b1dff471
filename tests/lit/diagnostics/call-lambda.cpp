// A lambda is no kernel: as written it does not convert to offload()'s kernel
// parameter, and through a conversion to a function pointer its target is not
// a named kernel.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

void host() {
  // CHECK: call-lambda.cpp:[[@LINE+1]]:11: error: a lambda cannot be an offload kernel; write a function marked '{{\[\[}}offload::kernel{{\]\]}}' and launch it by name
  offload([](int) {}, 1); // expected-error {{a lambda cannot be an offload kernel; write a function marked '[[offload::kernel]]' and launch it by name}}
  // CHECK: call-lambda.cpp:[[@LINE+1]]:11: error: offload() needs a kernel named directly, not a function pointer whose target is unknown at compile time
  offload(+[](int) {}, 1); // expected-error {{offload() needs a kernel named directly, not a function pointer whose target is unknown at compile time}}
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
