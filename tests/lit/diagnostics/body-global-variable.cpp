// A kernel cannot use a host global: the device copy is never updated (and
// the device link fails). Constants are fine.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

int counter = 0;
extern float scale;
constexpr int table[3] = {1, 2, 3};
const int limit = 8;
struct Config {
  static int mode;
  static constexpr int lanes = 4;
};

[[offload::kernel]] void k(int &x) {
  // CHECK: body-global-variable.cpp:[[@LINE+1]]:8: error: kernel 'k' uses global variable 'counter', which lives in host memory; pass it to the kernel as a parameter ('const T&' to read it, 'T&' to update it) or make it 'constexpr'
  x += counter; // expected-error {{kernel 'k' uses global variable 'counter', which lives in host memory; pass it to the kernel as a parameter ('const T&' to read it, 'T&' to update it) or make it 'constexpr'}}
  // CHECK: body-global-variable.cpp:[[@LINE+1]]:15: error: kernel 'k' uses global variable 'scale', which lives in host memory; pass it to the kernel as a parameter ('const T&' to read it, 'T&' to update it) or make it 'constexpr'
  x = int(x * scale); // expected-error {{kernel 'k' uses global variable 'scale'}}
  // CHECK: body-global-variable.cpp:[[@LINE+1]]:16: error: kernel 'k' uses global variable 'mode', which lives in host memory; pass it to the kernel as a parameter ('const T&' to read it, 'T&' to update it) or make it 'constexpr'
  x += Config::mode; // expected-error {{kernel 'k' uses global variable 'mode'}}
  x += table[x % 3] + limit + Config::lanes + int(sizeof(counter));
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
