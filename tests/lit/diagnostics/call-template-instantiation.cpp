// offload() in host templates: a call whose arguments depend on the
// template's parameters is checked in each instantiation (the error is at
// the call, for the instantiation), and not at all in a template that is
// never instantiated.
//
// offload-rewrite checks the instantiations the same way, and leaves every
// dependent call as it is, with a warning (REWRITE lines): it rewrites the
// template's text once, so it cannot give each instantiation its own data
// movement.
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

void plain(std::span<float>) {}
[[offload::kernel]] void kern(std::span<float>) {}

// REWRITE: call-template-instantiation.cpp:[[@LINE+1]]:39: warning: offload() call depends on template parameters; offload-rewrite cannot derive its data movement for every instantiation and leaves it as it is (it runs on the CPU through offload.hpp's fallback): launch from non-dependent code to offload it
template <class T> void never(T &t) { offload(plain, t); } // not instantiated: no error
// REWRITE: call-template-instantiation.cpp:[[@LINE+1]]:38: warning: offload() call depends on template parameters; offload-rewrite cannot derive its data movement for every instantiation and leaves it as it is (it runs on the CPU through offload.hpp's fallback): launch from non-dependent code to offload it
template <class T> void fine(T &t) { offload(kern, t); }
template <class T> void once(T &t) {
  // REWRITE: call-template-instantiation.cpp:[[@LINE+2]]:3: warning: offload() call depends on template parameters; offload-rewrite cannot derive its data movement for every instantiation and leaves it as it is (it runs on the CPU through offload.hpp's fallback): launch from non-dependent code to offload it
  // CHECK: call-template-instantiation.cpp:[[@LINE+1]]:11: error: 'plain' is not an offload kernel; mark it '{{\[\[}}offload::kernel{{\]\]}}'
  offload(plain, t); // expected-error {{'plain' is not an offload kernel; mark it '[[offload::kernel]]'}}
}

void host(std::span<float> s) {
  once(s);
  fine(s);
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
