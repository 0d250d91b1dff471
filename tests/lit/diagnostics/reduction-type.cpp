// Reductions of what is not an integer, float or double of at most 8 bytes:
// a class (std::string), bool, long double (80 bits on the host, 64 on
// GPUs), a 16-byte integer.
#include <string>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

// CHECK: reduction-type.cpp:[[@LINE+1]]:52: error: reduction parameter 's' of type 'ofld::sum<std::string> &' (aka 'ofld::sum<basic_string<char>> &'): 'std::basic_string<char>' is not an integer, 'float' or 'double' type of at most 8 bytes (bool and long double are not reduced)
[[offload::kernel]] void f(ofld::sum<std::string> &s) {} // expected-error {{reduction parameter 's' of type 'ofld::sum<std::string> &' (aka 'ofld::sum<basic_string<char>> &'): 'std::basic_string<char>' is not an integer, 'float' or 'double' type of at most 8 bytes (bool and long double are not reduced)}}
// CHECK: reduction-type.cpp:[[@LINE+1]]:45: error: reduction parameter 'b' of type 'ofld::max<bool> &': 'bool' is not
[[offload::kernel]] void g(ofld::max<bool> &b) {} // expected-error {{reduction parameter 'b' of type 'ofld::max<bool> &': 'bool' is not an integer}}
// CHECK: reduction-type.cpp:[[@LINE+1]]:52: error: reduction parameter 'l' of type 'ofld::sum<long double> &': 'long double' is not
[[offload::kernel]] void h(ofld::sum<long double> &l) {} // expected-error {{reduction parameter 'l' of type 'ofld::sum<long double> &': 'long double' is not an integer}}
// CHECK: reduction-type.cpp:[[@LINE+1]]:49: error: reduction parameter 'w' of type 'ofld::sum<__int128> &': '__int128' is not
[[offload::kernel]] void k(ofld::sum<__int128> &w) {} // expected-error {{reduction parameter 'w' of type 'ofld::sum<__int128> &': '__int128' is not an integer}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
