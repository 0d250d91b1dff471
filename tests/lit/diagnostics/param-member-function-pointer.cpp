// Member function pointers are host code addresses as much as plain ones.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

struct Op {
  int apply(int x) const { return x; }
};
// CHECK: param-member-function-pointer.cpp:[[@LINE+1]]:41: error: kernel parameter 'f' has function pointer type 'int (Op::*)(int) const': host function addresses are meaningless on the device
[[offload::kernel]] void call(int (Op::*f)(int) const, int &x) {} // expected-error {{kernel parameter 'f' has function pointer type 'int (Op::*)(int) const': host function addresses are meaningless on the device}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
