// A reference to a function is a host function address too.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s
// RUN: %if rewriter %{ not %offload-rewrite %s -- -std=c++20 -include offload/offload.hpp -I%shim-include -fno-caret-diagnostics 2>&1 | FileCheck %s %}

// CHECK: param-function-reference.cpp:[[@LINE+1]]:38: error: kernel parameter 'f' has function pointer type
[[offload::kernel]] void apply(int (&f)(int), int &x) {} // expected-error {{kernel parameter 'f' has function pointer type 'int (&)(int)': host function addresses are meaningless on the device}}
