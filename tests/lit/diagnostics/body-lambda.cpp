// Lambdas inside a kernel run on the device too.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s

[[offload::kernel]] void k(int &x) {
  auto twice = [](int v) {
    if (v < 0)
      // CHECK: body-lambda.cpp:[[@LINE+1]]:7: error: kernel 'k' cannot throw an exception
      throw v; // expected-error {{kernel 'k' cannot throw an exception}}
    return 2 * v;
  };
  x = twice(x);
}
