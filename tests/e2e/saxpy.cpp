//===- saxpy.cpp - end-to-end: saxpy and a template kernel (issue example) --===//
//
// Part of the offload project's tests. Every element of both results is
// compared with the host's: the inputs are small integers, so every result
// is exact whatever the order or contraction of the arithmetic.
//
//===----------------------------------------------------------------------===//

#include "expect.h"

#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void saxpy(float a, std::span<const float> x,
                               std::span<float> y) {
  std::size_t i = ofld::global_id();
  if (i < y.size())
    y[i] = a * x[i] + y[i];
}

template <class T>
[[offload::kernel]] void scale(T factor, std::span<T> v) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] *= factor;
}

int main() {
  constexpr std::size_t N = 1 << 20;
  std::vector<float> x(N), y(N), x0(N), ref(N);
  for (std::size_t i = 0; i < N; ++i) {
    x[i] = x0[i] = float(i % 101);
    y[i] = float(i % 37) - 18.0f;
    ref[i] = 2.0f * x[i] + y[i];
  }
  offload(saxpy, 2.0f, x, y);
  std::size_t bad = e2e::mismatches("y after saxpy", y, ref);
  bad += e2e::mismatches("x (read only)", x, x0);
  std::printf("after saxpy: y[7] = %g, y[%zu] = %g, %zu mismatches\n", y[7],
              N - 1, y[N - 1], bad);

  for (float &r : ref)
    r *= 0.5f;
  offload(ofld::launch{.grid = {4096}, .block = {256}}, scale<float>, 0.5f, y);
  std::size_t bad2 = e2e::mismatches("y after scale", y, ref);
  std::printf("after scale: y[7] = %g, y[%zu] = %g, %zu mismatches\n", y[7],
              N - 1, y[N - 1], bad2);
  bool ok = bad == 0 && bad2 == 0;
  std::printf("%s\n", ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
