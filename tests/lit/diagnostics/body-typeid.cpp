// typeid needs the host's std::type_info objects.
#include <typeinfo>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s

[[offload::kernel]] void name(int &x) {
  // CHECK: body-typeid.cpp:[[@LINE+1]]:11: error: kernel 'name' cannot use 'typeid'
  x = int(typeid(x).hash_code()); // expected-error {{kernel 'name' cannot use 'typeid': run-time type information exists only in the host C++ runtime}}
}
