// Regression test for the fuzzer's input (seed 404): a kernel declared twice
// whose parameter list does not parse, after <vector>. The AddressSanitizer
// build of offload-rewrite reported a use-after-poison while visiting the
// specialisations of a standard-library function template. No tool misread
// memory (valgrind finds no invalid access in the uninstrumented build): the
// rewriter's instrumented inline copy of llvm::BumpPtrAllocator poisons the
// slabs it creates, and the uninstrumented copy in libclang-cpp hands out
// memory from them without unpoisoning it. Sanitizer runs now set
// ASAN_OPTIONS=allow_user_poisoning=0 (cmake/Sanitizers.cmake); this input
// guards that in every OFFLOAD_SANITIZE build.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -fno-crash-diagnostics -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: --implicit-check-not=Sanitizer %}

#include <vector>

// CHECK-DAG: crash-rewriter-allocator-poison.cpp:[[@LINE+3]]:45: error: expected ')'
// CHECK-DAG: crash-rewriter-allocator-poison.cpp:[[@LINE+2]]:44: error: kernel parameter 'i' has pointer type 'const double *': the size of the pointee is unknown; pass 'std::span<const double>' instead
// expected-note@+1 {{to match this '('}} expected-note@+1 {{previous definition is here}} expected-error@+1 {{kernel parameter 'i' has pointer type}}
[[offload::kernel]] void sum(const double *i#, double &out) {} // expected-error {{expected ')'}}
// CHECK-DAG: crash-rewriter-allocator-poison.cpp:[[@LINE+2]]:45: error: expected ')'
// CHECK-DAG: crash-rewriter-allocator-poison.cpp:[[@LINE+1]]:26: error: redefinition of 'sum'
[[offload::kernel]] void sum(const double *i#, double &out) {} // expected-error {{expected ')'}} expected-note {{to match this '('}} expected-error {{redefinition of 'sum'}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
