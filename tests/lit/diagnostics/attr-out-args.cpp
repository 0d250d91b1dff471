// [[offload::out]] takes no arguments either.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s --check-prefix=FIXIT
// RUN: %if rewriter %{ not %offload-rewrite %s -- -std=c++20 -include offload/offload.hpp -I%shim-include -fno-caret-diagnostics 2>&1 | FileCheck %s %}

// FIXIT: fix-it:"{{.*}}attr-out-args.cpp":{[[@LINE+2]]:42-[[@LINE+2]]:48}:""
// CHECK: attr-out-args.cpp:[[@LINE+1]]:30: error: 'offload::out' takes no arguments
[[offload::kernel]] void k([[offload::out(true)]] int &x) {} // expected-error {{'offload::out' takes no arguments}}
