//===- many_launches.cpp - launch cost of rewritten code on a CPU ---------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// A program made of many small launches, built with the plugin and, after
// offload-rewrite, with stock clang for the same host offload target
// (run.sh compares them): launches that copy their data in and out, and
// launches on data an ofld::region keeps on the device.
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

[[offload::kernel]] void axpy(float a, std::span<const float> x,
                              std::span<float> y) {
  std::size_t i = ofld::global_id();
  if (i < y.size())
    y[i] += a * x[i];
}

[[offload::kernel]] void relax(std::span<const float> in,
                               std::span<float> out) {
  std::size_t i = ofld::global_id();
  if (i > 0 && i + 1 < out.size())
    out[i] = 0.5f * in[i] + 0.25f * (in[i - 1] + in[i + 1]);
}

int main(int argc, char **argv) {
  int launches = argc > 1 ? std::atoi(argv[1]) : 20000;
  std::vector<float> x(4096, 1.0f), y(4096, 0.0f);
  using Clock = std::chrono::steady_clock;
  auto t0 = Clock::now();
  for (int i = 0; i < launches; ++i)
    offload(axpy, 0.5f, x, y);
  auto t1 = Clock::now();
  {
    ofld::region resident{std::span<float>(x), std::span<float>(y)};
    for (int i = 0; i < launches / 2; ++i) {
      offload(relax, x, y);
      offload(relax, y, x);
    }
  }
  auto t2 = Clock::now();
  auto us = [](auto d) {
    return std::chrono::duration<double, std::micro>(d).count();
  };
  std::printf("copying launches: %.2f us each; resident launches: %.2f us "
              "each (y[0] = %g, x[7] = %g)\n",
              us(t1 - t0) / launches, us(t2 - t1) / launches, y[0], x[7]);
}
