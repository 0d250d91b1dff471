//===- bench/apps/blackscholes/ours.cpp - Black-Scholes with offload() ----===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// Prices n options (ref.hpp), inputs and outputs resident in an ofld::region;
// one thread per option, offload()'s default shape (blocks of 256), as
// cuda.cu launches. A repetition is one offload() call.
//
//   apps_blackscholes_ours [--n=OPTIONS (2^25)] [--reps=R] [--warmup=W]
//
//===----------------------------------------------------------------------===//

#include "ref.hpp"

#include <cmath>
#include <span>
#include <vector>

[[offload::kernel]] void
black_scholes(APPS_OUT std::span<float> call, APPS_OUT std::span<float> put,
              std::span<const float> price, std::span<const float> strike,
              std::span<const float> years, float r, float v) {
  const std::size_t i = ofld::global_id();
  if (i >= call.size())
    return;
  const float S = price[i], X = strike[i], T = years[i];
  const float sqrtT = std::sqrt(T);
  const float d1 = (std::log(S / X) + (r + 0.5f * v * v) * T) / (v * sqrtT);
  const float d2 = d1 - v * sqrtT;
  const float n1 = 0.5f * std::erfc(-d1 * 0.70710678f);
  const float n2 = 0.5f * std::erfc(-d2 * 0.70710678f);
  const float discount = X * std::exp(-r * T);
  call[i] = S * n1 - discount * n2;
  put[i] = discount * (1.0f - n2) - S * (1.0f - n1);
}

int main(int argc, char **argv) {
  bench::Args a = bench::parse(argc, argv, {50, 3, std::size_t(1) << 25, ""});
  if (ofld::device_count() < 1)
    bench::no_device(argv[0], "ofld::device_count() is 0");
  const std::size_t n = a.n;
  std::vector<float> s, x, t, call(n), put(n);
  blackscholes::make_inputs(n, s, x, t);
  apps::poison(call);
  apps::poison(put);
  bench::Samples samples;
  {
    ofld::region resident{std::span<float>(call), std::span<float>(put),
                          std::span<const float>(s), std::span<const float>(x),
                          std::span<const float>(t)};
    samples = bench::time_host(a, [&] {
      offload(black_scholes, call, put, s, x, t, blackscholes::kRate,
              blackscholes::kVol);
      // Launches on resident data return once queued (stream order):
      // wait for them, as the CUDA version synchronises.
      ofld::wait();
    });
  }
  blackscholes::check("ours", s, x, t, call, put);
  char extra[64];
  std::snprintf(extra, sizeof extra, "size=%zu", n);
  samples.report(blackscholes::kMeasure, "ours", 0, extra);
  return 0;
}
