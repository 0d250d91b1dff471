// Function pointers as kernel parameters, alone or in an array.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

// CHECK: param-function-pointer.cpp:[[@LINE+1]]:39: error: kernel parameter 'f' has function pointer type 'void (*)(int)': host function addresses are meaningless on the device
[[offload::kernel]] void apply(void (*f)(int), int &x) {} // expected-error {{kernel parameter 'f' has function pointer type 'void (*)(int)': host function addresses are meaningless on the device}}
// CHECK: param-function-pointer.cpp:[[@LINE+1]]:46: error: kernel parameter 'fs' has function pointer type 'int (*const[2])(int)': host function addresses are meaningless on the device
[[offload::kernel]] void table(int (*const (&fs)[2])(int), int &x) {} // expected-error {{kernel parameter 'fs' has function pointer type 'int (*const[2])(int)': host function addresses are meaningless on the device}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
