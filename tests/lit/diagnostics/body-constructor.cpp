// Constructors and destructors of the kernel's objects run on the device:
// their bodies are checked like any call.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

void log_destroyed(const void *); // host only
struct Guard {
  Guard() = default;
  ~Guard() {
    // CHECK: body-constructor.cpp:[[@LINE+1]]:5: error: kernel 'k' calls 'log_destroyed', which has no definition in this translation unit: device code can only call functions compiled with it; define 'log_destroyed' in this file or a header it includes, or declare it inside '#pragma omp declare target' when a device definition is linked in
    log_destroyed(this); // expected-error {{kernel 'k' calls 'log_destroyed', which has no definition in this translation unit}}
  }
};
struct Checked {
  explicit Checked(int v) : value(v) {
    if (v < 0)
      // CHECK: body-constructor.cpp:[[@LINE+1]]:7: error: kernel 'k' cannot throw an exception: device code has no exception handling; report failures through an output parameter
      throw v; // expected-error {{kernel 'k' cannot throw an exception}}
  }
  int value;
};
[[offload::kernel]] void k(int &x) {
  Guard g; // expected-note {{'~Guard' is called from 'k' here}}
  Checked c(x); // expected-note {{'Checked' is called from 'k' here}}
  x = c.value;
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
