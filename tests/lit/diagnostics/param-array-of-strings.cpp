// Arrays are checked element by element.
#include <string>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s
// RUN: %if rewriter %{ not %offload-rewrite %s -- -std=c++20 -include offload/offload.hpp -I%shim-include -fno-caret-diagnostics 2>&1 | FileCheck %s %}

// CHECK: param-array-of-strings.cpp:[[@LINE+1]]:48: error: kernel parameter 'names' has type
[[offload::kernel]] void f(const std::string (&names)[2]) {} // expected-error {{kernel parameter 'names' has type 'const std::string[2]' (aka 'const basic_string<char>[2]'), which is not trivially copyable}}
