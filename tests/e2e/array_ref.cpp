//===- array_ref.cpp - end-to-end: C arrays and std::array by reference, both ways ===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//

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
  float a[64];
  std::array<int, 32> b{};
  for (int i = 0; i < 64; ++i)
    a[i] = float(i);
  offload(square, a, b); // default shape: 64 threads from the first array
  bool ok = true;
  for (int i = 0; i < 64; ++i)
    ok &= a[i] == float(i * i);
  for (int i = 0; i < 32; ++i)
    ok &= b[i] == i;
  std::printf("a[63] = %.0f b[31] = %d: %s\n", a[63], b[31], ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
