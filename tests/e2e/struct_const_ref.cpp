//===- struct_const_ref.cpp - end-to-end: a struct by const& goes to the device only ===//
//
// Part of the offload project's tests. The kernel's results are checked
// element by element; that `f` is copied to the device and never back is
// checked from libomptarget's log (tests/lit/e2e/transfers.test): a copy
// back would write the same bytes, which no check here could see.
//
//===----------------------------------------------------------------------===//

#include "expect.h"

#include <cstdio>
#include <span>
#include <vector>

struct Affine {
  float scale, shift;
  int repeat;
};

[[offload::kernel]] void apply(const Affine &f, std::span<float> v) {
  std::size_t i = ofld::global_id();
  if (i >= v.size())
    return;
  for (int r = 0; r < f.repeat; ++r)
    v[i] = v[i] * f.scale + f.shift;
}

int main() {
  Affine f{2.0f, 1.0f, 3};
  std::vector<float> v(4096), ref(4096);
  for (std::size_t i = 0; i < v.size(); ++i) {
    v[i] = float(i % 13) - 6.0f;
    // ((v * 2 + 1) * 2 + 1) * 2 + 1, exact for these values
    ref[i] = v[i] * 8.0f + 7.0f;
  }
  offload(apply, f, v);
  bool ok = e2e::mismatches("v", v, ref) == 0;
  std::printf("v[0] = %.1f, v[4095] = %.1f: %s\n", v[0], v[4095],
              ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
