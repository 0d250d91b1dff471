//===- launcher_above.cpp - end-to-end: launches above their kernels ------===//
//
// Part of the offload project's tests. Most CUDA code declares its kernels
// in a header and writes its launchers (`run_*()`) first: the launches here
// stand above the definitions of a kernel, of a kernel template, and of a
// kernel declared again after its definition, and run with their default
// shapes (read from the bodies further down) and explicit ones.
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp> // optional with the plugin

#include "expect.h"

#include <cstdio>
#include <span>
#include <vector>

// As a header would declare them.
[[offload::kernel]] void scale(std::span<float> y, float a);
template <class T>
[[offload::kernel]] void shift(std::span<T> y, T by, unsigned &threads);
[[offload::kernel]] void count(std::span<const int> v, unsigned &hits);

static void run_scale(std::vector<float> &y) { offload(scale, y, 3.0f); }
static void run_shift(std::vector<double> &y, unsigned &threads) {
  offload(shift<double>, y, 0.5, threads);
}
static void run_count(std::vector<int> &v, unsigned &hits) {
  offload(ofld::launch{.grid = {(v.size() + 127) / 128}, .block = {128}}, count,
          v, hits);
}

[[offload::kernel]] void scale(std::span<float> y, float a) {
  std::size_t i = ofld::global_id();
  if (i < y.size())
    y[i] *= a;
}

template <class T>
[[offload::kernel]] void shift(std::span<T> y, T by, unsigned &threads) {
  ofld::atomic_add(&threads, 1u);
  std::size_t i = ofld::global_id();
  if (i >= y.size())
    return;
  y[i] += by;
}

[[offload::kernel]] void count(std::span<const int> v, unsigned &hits) {
  std::size_t i = ofld::global_id();
  if (i < v.size() && v[i] % 3 == 0)
    ofld::atomic_add(&hits, 1u);
}

// Declared again after its definition, as a second header might.
[[offload::kernel]] void count(std::span<const int> v, unsigned &hits);

int main() {
  bool ok = true;
  std::vector<float> y(5000, 2.0f);
  run_scale(y);
  ok &= e2e::mismatches("scale", y, std::vector<float>(5000, 6.0f)) == 0;

  std::vector<double> d(300, 1.0);
  unsigned threads = 0;
  run_shift(d, threads);
  ok &= e2e::mismatches("shift", d, std::vector<double>(300, 1.5)) == 0;
  ok &= e2e::expect_eq("shift threads", threads, 512u);

  std::vector<int> v(1000);
  for (int i = 0; i < 1000; ++i)
    v[std::size_t(i)] = i;
  unsigned hits = 0;
  run_count(v, hits);
  ok &= e2e::expect_eq("count hits", hits, 334u);

  std::printf("scale y[4999] = %g, shift d[299] = %g with %u threads, count "
              "%u: %s\n",
              double(y[4999]), d[299], threads, hits, ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
