//===- array_ref.cpp - end-to-end: C arrays and std::array by reference, both ways ===//
//
// Part of the offload project's tests. Both arrays start with values the
// kernel reads, so a copy that does not go in shows.
//
//===----------------------------------------------------------------------===//

#include "expect.h"

#include <array>
#include <cstdio>

[[offload::kernel]] void square(float (&a)[64], std::array<int, 32> &b) {
  std::size_t i = ofld::global_id();
  if (i < 64)
    a[i] = a[i] * a[i];
  if (i < 32)
    b[i] += int(i);
}

int main() {
  float a[64], ra[64];
  std::array<int, 32> b, rb;
  for (int i = 0; i < 64; ++i) {
    a[i] = float(i - 20);
    ra[i] = a[i] * a[i];
  }
  for (int i = 0; i < 32; ++i) {
    b[i] = 100 - 3 * i;
    rb[i] = b[i] + i;
  }
  offload(square, a, b); // default shape: 64 threads from the first array
  bool ok = e2e::mismatches("a", a, ra) == 0;
  ok &= e2e::mismatches("b", b, rb) == 0;
  std::printf("a[63] = %.0f b[31] = %d: %s\n", a[63], b[31],
              ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
