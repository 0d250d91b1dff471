// [[offload::in]] on a parameter of const type: such a parameter is copied
// in and never back already, and the kernel cannot write it; the attribute
// would say nothing, so it is refused rather than read as meaning something.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

struct Pod { float x; };
// CHECK: param-in-const.cpp:[[@LINE+1]]:65: error: 'offload::in' on parameter 'v' of const type 'std::span<const int>' changes nothing: the kernel cannot write it and it is never copied back; drop 'offload::in'
[[offload::kernel]] void f([[offload::in]] std::span<const int> v) {} // expected-error {{'offload::in' on parameter 'v' of const type 'std::span<const int>' changes nothing: the kernel cannot write it and it is never copied back; drop 'offload::in'}}
// CHECK: param-in-const.cpp:[[@LINE+1]]:55: error: 'offload::in' on parameter 'p' of const type 'const Pod &' changes nothing
[[offload::kernel]] void g([[offload::in]] const Pod &p) {} // expected-error {{'offload::in' on parameter 'p' of const type 'const Pod &' changes nothing}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
