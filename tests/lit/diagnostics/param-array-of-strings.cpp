// Arrays are checked element by element.
#include <string>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

// CHECK: param-array-of-strings.cpp:[[@LINE+1]]:48: error: kernel parameter 'names' has type 'const std::string[2]' (aka 'const basic_string<char>[2]'), whose copy constructor or destructor is not trivial: it cannot be copied to the device byte by byte
[[offload::kernel]] void f(const std::string (&names)[2]) {} // expected-error {{kernel parameter 'names' has type 'const std::string[2]' (aka 'const basic_string<char>[2]'), whose copy constructor or destructor is not trivial}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
