// typeid needs the host's std::type_info objects.
#include <typeinfo>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

[[offload::kernel]] void name(int &x) {
  // CHECK: body-typeid.cpp:[[@LINE+3]]:11: error: kernel 'name' cannot use 'typeid': run-time type information exists only in the host C++ runtime
  // What std::type_info's inline members call is not on the device either.
  // CHECK: body-typeid.cpp:[[@LINE+1]]:21: error: kernel 'name' calls 'std::type_info::hash_code', which needs 'std::_Hash_bytes', a host library function that no device provides: this part of the library cannot run in device code
  x = int(typeid(x).hash_code()); // expected-error {{kernel 'name' cannot use 'typeid': run-time type information exists only in the host C++ runtime}} expected-error {{kernel 'name' calls 'std::type_info::hash_code', which needs 'std::_Hash_bytes'}}
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
