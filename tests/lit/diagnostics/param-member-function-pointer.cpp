// Member function pointers are host code addresses as much as plain ones.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s
// RUN: %if rewriter %{ not %offload-rewrite %s -- -std=c++20 -include offload/offload.hpp -I%shim-include -fno-caret-diagnostics 2>&1 | FileCheck %s %}

struct Op {
  int apply(int x) const { return x; }
};
// CHECK: param-member-function-pointer.cpp:[[@LINE+1]]:41: error: kernel parameter 'f' has function pointer type
[[offload::kernel]] void call(int (Op::*f)(int) const, int &x) {} // expected-error {{kernel parameter 'f' has function pointer type 'int (Op::*)(int) const': host function addresses are meaningless on the device}}
