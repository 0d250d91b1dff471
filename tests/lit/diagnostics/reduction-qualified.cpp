// A const reduction parameter, or one marked [[offload::out]] or
// [[offload::in]]: the kernel's
// threads combine into it, and the launch folds the old value in.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

// CHECK: reduction-qualified.cpp:[[@LINE+1]]:53: error: reduction parameter 's' of type 'const ofld::sum<double> &' cannot be const: the kernel's threads combine into it and the launch folds its old value in; take it as 'ofld::sum<T>&', 'ofld::min<T>&' or 'ofld::max<T>&'
[[offload::kernel]] void f(const ofld::sum<double> &s) {} // expected-error {{reduction parameter 's' of type 'const ofld::sum<double> &' cannot be const: the kernel's threads combine into it and the launch folds its old value in; take it as 'ofld::sum<T>&', 'ofld::min<T>&' or 'ofld::max<T>&'}}
// CHECK: reduction-qualified.cpp:[[@LINE+1]]:61: error: reduction parameter 'm' of type 'ofld::min<int> &' cannot be 'offload::out'
[[offload::kernel]] void g([[offload::out]] ofld::min<int> &m) {} // expected-error {{reduction parameter 'm' of type 'ofld::min<int> &' cannot be 'offload::out': the kernel's threads combine into it}}
// CHECK: reduction-qualified.cpp:[[@LINE+1]]:60: error: reduction parameter 'x' of type 'ofld::max<int> &' cannot be 'offload::in'
[[offload::kernel]] void h([[offload::in]] ofld::max<int> &x) {} // expected-error {{reduction parameter 'x' of type 'ofld::max<int> &' cannot be 'offload::in': the kernel's threads combine into it}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
