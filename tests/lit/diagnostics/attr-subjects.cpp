// [[offload::kernel]] on what is not a function.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s
// RUN: %if rewriter %{ not %offload-rewrite %s -- -std=c++20 -include offload/offload.hpp -I%shim-include -fno-caret-diagnostics 2>&1 | FileCheck %s %}

// CHECK: attr-subjects.cpp:[[@LINE+1]]:13: error: 'offload::kernel' only applies to functions and function templates
namespace [[offload::kernel]] ns {} // expected-error {{'offload::kernel' only applies to functions and function templates}}
enum [[offload::kernel]] E { A }; // expected-error {{'offload::kernel' only applies to functions and function templates}}
struct S {
  [[offload::kernel]] int field; // expected-error {{'offload::kernel' only applies to functions and function templates}}
};
[[offload::kernel]] typedef int T; // expected-error {{'offload::kernel' only applies to functions and function templates}}
void f() {
  [[offload::kernel]] int local = 0; // expected-error {{'offload::kernel' only applies to functions and function templates}}
  (void)local;
}
