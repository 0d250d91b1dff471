// [[offload::kernel]] takes no arguments. clang skips the arguments of an
// unknown scoped attribute without parsing them, and for plugin attributes it
// asks with the unscoped name, so this used to be accepted silently (see
// isUnscopedSpelling in plugin/Sema/KernelAttributes.cpp).
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s --check-prefix=FIXIT
// RUN: %if rewriter %{ not %offload-rewrite %s -- -std=c++20 -include offload/offload.hpp -I%shim-include -fno-caret-diagnostics 2>&1 | FileCheck %s %}

// CHECK: attr-kernel-args.cpp:[[@LINE+2]]:3: error: 'offload::kernel' takes no arguments
// FIXIT: fix-it:"{{.*}}attr-kernel-args.cpp":{[[@LINE+1]]:18-[[@LINE+1]]:21}:""
[[offload::kernel(3)]] void three(int) {} // expected-error {{'offload::kernel' takes no arguments}}
// CHECK: attr-kernel-args.cpp:[[@LINE+1]]:3: error: 'offload::kernel' takes no arguments
[[offload::kernel("name", 2)]] void two(int) {} // expected-error {{'offload::kernel' takes no arguments}}
// CHECK: attr-kernel-args.cpp:[[@LINE+2]]:16: error: 'offload::kernel' takes no arguments
// FIXIT: fix-it:"{{.*}}attr-kernel-args.cpp":{[[@LINE+1]]:30-[[@LINE+1]]:33}:""
__attribute__((offload_kernel(1))) void gnu(int) {} // expected-error {{'offload::kernel' takes no arguments}}
