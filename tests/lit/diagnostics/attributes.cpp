// Where the attributes may appear, and that they take no arguments.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

// CHECK: attributes.cpp:[[@LINE+1]]:3: error: 'offload::kernel' only applies to functions and function templates
[[offload::kernel]] int variable; // expected-error {{'offload::kernel' only applies to functions and function templates}}
// CHECK: attributes.cpp:[[@LINE+1]]:10: error: 'offload::kernel' only applies to functions and function templates
struct [[offload::kernel]] Klass {}; // expected-error {{'offload::kernel' only applies to functions and function templates}}
// CHECK: attributes.cpp:[[@LINE+1]]:3: error: 'offload::out' only applies to kernel parameters
[[offload::out]] int not_a_param; // expected-error {{'offload::out' only applies to kernel parameters}}
__attribute__((offload_kernel)) void gnu_spelling(int) {}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
