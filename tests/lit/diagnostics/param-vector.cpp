// Containers that own their memory are not trivially copyable: by value and
// by reference alike, only their header would move.
#include <vector>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s
// RUN: %if rewriter %{ not %offload-rewrite %s -- -std=c++20 -include offload/offload.hpp -I%shim-include -fno-caret-diagnostics 2>&1 | FileCheck %s %}

// CHECK: param-vector.cpp:[[@LINE+1]]:49: error: kernel parameter 'v' has type
[[offload::kernel]] void byval(std::vector<int> v) {} // expected-error {{kernel parameter 'v' has type 'std::vector<int>', which is not trivially copyable and cannot be copied to the device byte by byte}}
[[offload::kernel]] void byref(const std::vector<int> &v) {} // expected-error {{kernel parameter 'v' has type 'const std::vector<int>', which is not trivially copyable}}
