// [[offload::kernel]] takes no arguments. clang skips the arguments of an
// unknown scoped attribute without parsing them, and for plugin attributes it
// asks with the unscoped name, so this used to be accepted silently (see
// isUnscopedSpelling in core/lib/KernelAttributes.cpp).
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s --check-prefix=FIXIT

// FIXIT: fix-it:"{{.*}}attr-kernel-args.cpp":{[[@LINE+2]]:18-[[@LINE+2]]:21}:""
// CHECK: attr-kernel-args.cpp:[[@LINE+1]]:3: error: 'offload::kernel' takes no arguments
[[offload::kernel(3)]] void three(int) {} // expected-error {{'offload::kernel' takes no arguments}}
// CHECK: attr-kernel-args.cpp:[[@LINE+1]]:3: error: 'offload::kernel' takes no arguments
[[offload::kernel("name", 2)]] void two(int) {} // expected-error {{'offload::kernel' takes no arguments}}
// FIXIT: fix-it:"{{.*}}attr-kernel-args.cpp":{[[@LINE+2]]:30-[[@LINE+2]]:33}:""
// CHECK: attr-kernel-args.cpp:[[@LINE+1]]:16: error: 'offload::kernel' takes no arguments
__attribute__((offload_kernel(1))) void gnu(int) {} // expected-error {{'offload::kernel' takes no arguments}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
