// Lambdas inside a kernel run on the device too.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

[[offload::kernel]] void k(int &x) {
  auto twice = [](int v) {
    if (v < 0)
      // CHECK: body-lambda.cpp:[[@LINE+1]]:7: error: kernel 'k' cannot throw an exception: device code has no exception handling; report failures through an output parameter
      throw v; // expected-error {{kernel 'k' cannot throw an exception}}
    return 2 * v;
  };
  x = twice(x);
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
