// What the host's C and C++ libraries implement out of line does not exist
// on a device: the I/O streams and C's standard I/O (printf aside: it works
// in kernels on every target) and any other library function without a
// device version. Rejected on every target, with what to use instead;
// what the headers define inline, printf, malloc, new and the math library
// are fine, and so are memcpy and memset (instructions on every target).
// (Clang's wrappers for a GPU libc, which this toolchain lacks,
// declare stdout and stderr declare target: they are rejected all the same.)
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

void trace(int v);

[[offload::kernel]] void k(int &x) {
  trace(x); // expected-note {{'trace' is called from 'k' here}}
  // CHECK: body-host-library.cpp:[[@LINE+2]]:3: error: kernel 'k' calls 'fprintf', part of the host's C standard I/O; devices have no files or streams: print with 'printf'
  // CHECK: body-host-library.cpp:[[@LINE+1]]:16: error: kernel 'k' uses 'stderr', part of the host's C standard I/O; devices have no files or streams: print with 'printf'
  std::fprintf(stderr, "x = %d\n", x); // expected-error {{kernel 'k' calls 'fprintf', part of the host's C standard I/O; devices have no files or streams: print with 'printf'}} expected-error {{kernel 'k' uses 'stderr', part of the host's C standard I/O}}
  // CHECK: body-host-library.cpp:[[@LINE+1]]:3: error: kernel 'k' calls 'puts', part of the host's C standard I/O; devices have no files or streams: print with 'printf'
  std::puts("done"); // expected-error {{kernel 'k' calls 'puts', part of the host's C standard I/O}}
  // CHECK: body-host-library.cpp:[[@LINE+1]]:22: error: kernel 'k' calls 'getenv', a host library function that no device provides; compute on the host and pass the result to the kernel
  const char *home = std::getenv("HOME"); // expected-error {{kernel 'k' calls 'getenv', a host library function that no device provides; compute on the host and pass the result to the kernel}}
  x += home != nullptr;
  // CHECK: body-host-library.cpp:[[@LINE+1]]:8: error: kernel 'k' calls 'rand', a host library function that no device provides; compute on the host and pass the result to the kernel
  x += std::rand(); // expected-error {{kernel 'k' calls 'rand', a host library function that no device provides}}
  // Library builtins are calls on a GPU too, unless they fold.
  // CHECK: body-host-library.cpp:[[@LINE+1]]:8: error: kernel 'k' calls 'strlen', a host library function that no device provides; compute on the host and pass the result to the kernel
  x += std::strlen(home); // expected-error {{kernel 'k' calls 'strlen', a host library function that no device provides}}
  x += int(std::strlen("abc"));
  std::printf("x = %d\n", x);
  int *p = static_cast<int *>(std::malloc(sizeof(int)));
  std::memset(p, 0, sizeof(int));
  std::free(p);
  std::array<float, 2> a{std::sqrt(2.0f), std::fabs(-1.0f)};
  x += int(a[0] + a[1]) + std::abs(x);
}

void trace(int v) {
  // One error per function for the streams, at the first use seen.
  // CHECK: body-host-library.cpp:[[@LINE+1]]:28: error: kernel 'k' calls 'std::basic_ostream<char>::operator<<', part of the host's I/O streams, which device code cannot print through; use 'printf'
  std::cout << "v = " << v << std::endl; // expected-error {{kernel 'k' calls 'std::basic_ostream<char>::operator<<', part of the host's I/O streams, which device code cannot print through; use 'printf'}}
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
