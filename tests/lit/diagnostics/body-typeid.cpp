// typeid needs the host's std::type_info objects.
#include <typeinfo>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

[[offload::kernel]] void name(int &x) {
  // CHECK: body-typeid.cpp:[[@LINE+1]]:11: error: kernel 'name' cannot use 'typeid': run-time type information exists only in the host C++ runtime
  x = int(typeid(x).hash_code()); // expected-error {{kernel 'name' cannot use 'typeid': run-time type information exists only in the host C++ runtime}}
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
