// A kernel cannot use a host global: the device copy is never updated (and
// the device link fails). Constants are fine, whatever their type: the device
// image gets a copy of each (tests/lit/codegen/device-constants.cpp). A
// constant defined in another file is not: its value is not here to copy.
#include <array>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

int counter = 0;
extern float scale;
constexpr int table[3] = {1, 2, 3};
const int limit = 8;
constexpr std::array<int, 2> steps{5, 6};
const float weights[2] = {0.5f, 0.25f};
extern const float elsewhere[2];
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
  x += steps[x % 2] + int(weights[x % 2]);
  // CHECK: body-global-variable.cpp:[[@LINE+1]]:12: error: kernel 'k' uses global variable 'elsewhere', which lives in host memory; pass it to the kernel as a parameter ('const T&' to read it, 'T&' to update it) or make it 'constexpr'
  x += int(elsewhere[0]); // expected-error {{kernel 'k' uses global variable 'elsewhere'}}
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
