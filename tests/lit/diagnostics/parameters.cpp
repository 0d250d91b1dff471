// Every rejected row of the transfer table, reported at the parameter.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

#include <span>
#include <string>

struct Poly {
  virtual ~Poly();
  int x;
};

// CHECK: parameters.cpp:[[@LINE+1]]:37: error: kernel parameter 'p' has pointer type 'float *': the size of the pointee is unknown; pass 'std::span<float>' instead
[[offload::kernel]] void raw(float *p) {} // expected-error {{kernel parameter 'p' has pointer type 'float *': the size of the pointee is unknown; pass 'std::span<float>' instead}}
// CHECK: parameters.cpp:[[@LINE+1]]:39: error: kernel parameter 'f' has function pointer type 'void (*)(int)': host function addresses are meaningless on the device
[[offload::kernel]] void fnptr(void (*f)(int)) {} // expected-error {{kernel parameter 'f' has function pointer type 'void (*)(int)': host function addresses are meaningless on the device}}
// CHECK: parameters.cpp:[[@LINE+1]]:42: error: kernel parameter 's' has type 'std::string' (aka 'basic_string<char>'), whose copy constructor or destructor is not trivial: it cannot be copied to the device byte by byte
[[offload::kernel]] void str(std::string s) {} // expected-error {{kernel parameter 's' has type 'std::string' (aka 'basic_string<char>'), whose copy constructor or destructor is not trivial: it cannot be copied to the device byte by byte}}
// CHECK: parameters.cpp:[[@LINE+1]]:43: error: kernel parameter 'p' refers to polymorphic class 'const Poly': its vtable pointer is not valid on the device
[[offload::kernel]] void poly(const Poly &p) {} // expected-error {{kernel parameter 'p' refers to polymorphic class 'const Poly': its vtable pointer is not valid on the device}}
// CHECK: parameters.cpp:[[@LINE+1]]:37: error: kernel parameter 'r' is an rvalue reference 'int &&'; take 'const T&' to copy to the device or 'T&' to copy both ways
[[offload::kernel]] void rref(int &&r) {} // expected-error {{kernel parameter 'r' is an rvalue reference 'int &&'; take 'const T&' to copy to the device or 'T&' to copy both ways}}
// CHECK: parameters.cpp:[[@LINE+1]]:39: error: kernel parameter 'r' is a reference to pointer 'int *&'; pass 'std::span' instead
[[offload::kernel]] void refptr(int *&r) {} // expected-error {{kernel parameter 'r' is a reference to pointer 'int *&'; pass 'std::span' instead}}
// CHECK: parameters.cpp:[[@LINE+1]]:57: error: kernel parameter 'v' views elements of type 'std::basic_string<char>', whose copy constructor or destructor is not trivial
[[offload::kernel]] void spanstr(std::span<std::string> v) {} // expected-error {{kernel parameter 'v' views elements of type 'std::basic_string<char>', whose copy constructor or destructor is not trivial}}
// CHECK: parameters.cpp:[[@LINE+1]]:63: error: 'offload::out' on parameter 'x' of const type 'const int &': the kernel cannot write it; drop 'const' or drop 'offload::out'
[[offload::kernel]] void outconst([[offload::out]] const int &x) {} // expected-error {{'offload::out' on parameter 'x' of const type 'const int &': the kernel cannot write it; drop 'const' or drop 'offload::out'}}
// CHECK: parameters.cpp:[[@LINE+1]]:54: error: 'offload::out' on by-value parameter 'x': nothing would come back; take it as 'T&' or 'std::span<T>'
[[offload::kernel]] void outval([[offload::out]] int x) {} // expected-error {{'offload::out' on by-value parameter 'x': nothing would come back; take it as 'T&' or 'std::span<T>'}}
// CHECK: parameters.cpp:[[@LINE+1]]:52: error: kernel parameter 'v' takes a std::span by reference ('std::span<float> &'); take it by value, as 'std::span<float>': a span is a view, and its elements are what moves
[[offload::kernel]] void spanref(std::span<float> &v) {} // expected-error {{kernel parameter 'v' takes a std::span by reference ('std::span<float> &'); take it by value, as 'std::span<float>': a span is a view, and its elements are what moves}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
