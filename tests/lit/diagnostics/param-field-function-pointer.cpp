// A function pointer in a struct: a host code address, meaningless on the
// device like a function pointer parameter.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

struct Op {
  int (*apply)(int); // expected-note {{field 'apply' declared here}}
  int bias;
};
// CHECK: param-field-function-pointer.cpp:[[@LINE+1]]:33: error: kernel parameter 'op': field 'apply' of 'Op' is a function pointer: host function addresses are meaningless on the device
[[offload::kernel]] void run(Op op, int &x) {} // expected-error {{kernel parameter 'op': field 'apply' of 'Op' is a function pointer: host function addresses are meaningless on the device}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
