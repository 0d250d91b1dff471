// [[offload::kernel]] on what is not a function.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

// CHECK: attr-subjects.cpp:[[@LINE+1]]:13: error: 'offload::kernel' only applies to functions and function templates
namespace [[offload::kernel]] ns {} // expected-error {{'offload::kernel' only applies to functions and function templates}}
// CHECK: attr-subjects.cpp:[[@LINE+1]]:8: error: 'offload::kernel' only applies to functions and function templates
enum [[offload::kernel]] E { A }; // expected-error {{'offload::kernel' only applies to functions and function templates}}
struct S {
  // CHECK: attr-subjects.cpp:[[@LINE+1]]:5: error: 'offload::kernel' only applies to functions and function templates
  [[offload::kernel]] int field; // expected-error {{'offload::kernel' only applies to functions and function templates}}
};
// CHECK: attr-subjects.cpp:[[@LINE+1]]:3: error: 'offload::kernel' only applies to functions and function templates
[[offload::kernel]] typedef int T; // expected-error {{'offload::kernel' only applies to functions and function templates}}
void f() {
  // CHECK: attr-subjects.cpp:[[@LINE+1]]:5: error: 'offload::kernel' only applies to functions and function templates
  [[offload::kernel]] int local = 0; // expected-error {{'offload::kernel' only applies to functions and function templates}}
  (void)local;
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
