//===- bench/apps/montecarlo/ours.cpp - Monte Carlo pricing with offload() ===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// n threads of kSamples paths each (ref.hpp), one partial sum per block of
// kBlock threads (a tree in block-shared memory), the partials resident in
// an ofld::region. A repetition is one offload() call.
//
//   apps_montecarlo_ours [--n=THREADS (2^20)] [--reps=R] [--warmup=W]
//
//===----------------------------------------------------------------------===//

#include "ref.hpp"

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

using montecarlo::kBlock;

/// Needs blocks of kBlock threads (the tree's size).
[[offload::kernel]] void mc_call(APPS_OUT std::span<float> partial,
                                 unsigned samples, float s0, float strike,
                                 float drift, float vol_t) {
  ofld::shared_array<float, kBlock> sums;
  const unsigned t = ofld::thread_id();
  const std::uint32_t first = std::uint32_t(ofld::global_id()) * samples;
  float sum = 0;
  for (unsigned k = 0; k < samples; ++k) {
    std::uint32_t c = montecarlo::counter(first + k);
    float u1 = apps::unit_open(apps::pcg_hash(c));
    float u2 = apps::unit_open(apps::pcg_hash(c + 1));
    float z =
        std::sqrt(-2.0f * std::log(u1)) * std::cos(montecarlo::kTwoPi * u2);
    float st = s0 * std::exp(drift + vol_t * z);
    sum += std::fmax(st - strike, 0.0f);
  }
  sums[t] = sum;
  ofld::sync_threads();
  for (unsigned half = kBlock / 2; half > 0; half /= 2) {
    if (t < half)
      sums[t] += sums[t + half];
    ofld::sync_threads();
  }
  if (t == 0)
    partial[ofld::block_id()] = sums[0];
}

int main(int argc, char **argv) {
  bench::Args a = bench::parse(argc, argv, {20, 3, std::size_t(1) << 20, ""});
  if (ofld::device_count() < 1)
    bench::no_device(argv[0], "ofld::device_count() is 0");
  const std::size_t blocks = (a.n + kBlock - 1) / kBlock,
                    threads = blocks * kBlock;
  std::vector<float> partial(blocks);
  apps::poison(partial);
  const ofld::launch shape{.grid = {unsigned(blocks)}, .block = {kBlock}};
  bench::Samples s;
  {
    ofld::region resident{std::span<float>(partial)};
    s = bench::time_host(a, [&] {
      offload(shape, mc_call, partial, montecarlo::kSamples, montecarlo::kS0,
              montecarlo::kStrike, montecarlo::drift(), montecarlo::vol_t());
      // Launches on resident data return once queued (stream order):
      // wait for them, as the CUDA version synchronises.
      ofld::wait();
    });
  }
  montecarlo::check("ours", threads, partial);
  char extra[64];
  std::snprintf(extra, sizeof extra, "size=%zux%u", threads,
                montecarlo::kSamples);
  s.report(montecarlo::kMeasure, "ours", 0, extra);
  return 0;
}
