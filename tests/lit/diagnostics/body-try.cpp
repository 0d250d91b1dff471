// Nor can they be caught there.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

[[offload::kernel]] void guarded(int &x) {
  // CHECK: body-try.cpp:[[@LINE+1]]:3: error: kernel 'guarded' cannot catch exceptions: device code has no exception handling; report failures through an output parameter
  try { // expected-error {{kernel 'guarded' cannot catch exceptions: device code has no exception handling}}
    x = 1;
  } catch (...) {
    x = 0;
  }
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
