// Bit-fields: a struct with bit-fields is trivially copyable and its layout
// is the host's on every offload target (clang lays out device records with
// the host's ABI), so it is accepted by value and by reference
// (tests/lit/runtime-faults/bitfields.test checks the values on the host
// offload target). What stays wrong is wrong for any type, e.g. out by value.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

struct Flags {
  unsigned ready : 1;
  unsigned mode : 3;
  int level : 12;
};
[[offload::kernel]] void byval(Flags f, int &out) { out = f.level; }
[[offload::kernel]] void byref(Flags &f) { f.mode = 5; }
// CHECK: param-bitfield.cpp:[[@LINE+1]]:56: error: 'offload::out' on by-value parameter 'f': nothing would come back; take it as 'T&' or 'std::span<T>'
[[offload::kernel]] void outval([[offload::out]] Flags f) {} // expected-error {{'offload::out' on by-value parameter 'f': nothing would come back; take it as 'T&' or 'std::span<T>'}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
