// [[offload::out]] takes no arguments either.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s --check-prefix=FIXIT

// FIXIT: fix-it:"{{.*}}attr-out-args.cpp":{[[@LINE+2]]:42-[[@LINE+2]]:48}:""
// CHECK: attr-out-args.cpp:[[@LINE+1]]:30: error: 'offload::out' takes no arguments
[[offload::kernel]] void k([[offload::out(true)]] int &x) {} // expected-error {{'offload::out' takes no arguments}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
