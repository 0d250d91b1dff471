// Constructors and destructors of the kernel's objects run on the device:
// their bodies are checked like any call.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx %host-target --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s

void log_destroyed(const void *); // host only
struct Guard {
  Guard() = default;
  ~Guard() {
    // CHECK: body-constructor.cpp:[[@LINE+1]]:5: error: kernel 'k' calls 'log_destroyed', which has no definition
    log_destroyed(this); // expected-error {{kernel 'k' calls 'log_destroyed', which has no definition in this translation unit}}
  }
};
struct Checked {
  explicit Checked(int v) : value(v) {
    if (v < 0)
      throw v; // expected-error {{kernel 'k' cannot throw an exception}}
  }
  int value;
};
[[offload::kernel]] void k(int &x) {
  Guard g; // expected-note {{'~Guard' is called from 'k' here}}
  Checked c(x); // expected-note {{'Checked' is called from 'k' here}}
  x = c.value;
}
