// Containers that own their memory do not copy as bytes: by value and
// by reference alike, only their header would move.
#include <vector>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

// CHECK: param-vector.cpp:[[@LINE+1]]:49: error: kernel parameter 'v' has type 'std::vector<int>', whose copy constructor or destructor is not trivial: it cannot be copied to the device byte by byte
[[offload::kernel]] void byval(std::vector<int> v) {} // expected-error {{kernel parameter 'v' has type 'std::vector<int>', whose copy constructor or destructor is not trivial: it cannot be copied to the device byte by byte}}
// CHECK: param-vector.cpp:[[@LINE+1]]:56: error: kernel parameter 'v' has type 'const std::vector<int>', whose copy constructor or destructor is not trivial: it cannot be copied to the device byte by byte
[[offload::kernel]] void byref(const std::vector<int> &v) {} // expected-error {{kernel parameter 'v' has type 'const std::vector<int>', whose copy constructor or destructor is not trivial}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
