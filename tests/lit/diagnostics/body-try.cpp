// Nor can they be caught there.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s

[[offload::kernel]] void guarded(int &x) {
  // CHECK: body-try.cpp:[[@LINE+1]]:3: error: kernel 'guarded' cannot catch exceptions
  try { // expected-error {{kernel 'guarded' cannot catch exceptions: device code has no exception handling}}
    x = 1;
  } catch (...) {
    x = 0;
  }
}
