//===- bench/apps/montecarlo/ref.hpp - Monte Carlo option price and check -===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The price of a European call by Monte Carlo (float): each of n threads
// draws kSamples terminal prices of geometric Brownian motion,
//   S_T = S0 exp((r - s^2/2) T + s sqrt(T) z),  z by Box-Muller from two
//   uniforms u1, u2: sqrt(-2 log u1) cos(2 pi u2),
// sums the payoffs max(S_T - K, 0), and each block of kBlock threads adds
// its sums in block-shared memory to one partial sum; the host adds the
// partials and discounts. The uniforms come from a hash of the sample's
// global number (apps::pcg_hash: counter-based, nothing stored), so any
// block can be recomputed on the CPU: the check does that for a sample of
// blocks in double, and compares the price with the closed form.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_APPS_MONTECARLO_REF_HPP
#define OFFLOAD_BENCH_APPS_MONTECARLO_REF_HPP

#include "../common/apps.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

namespace montecarlo {

constexpr unsigned kBlock = 256, kSamples = 256;
constexpr float kS0 = 100, kStrike = 100, kRate = 0.05f, kVol = 0.2f,
                kYears = 1;
constexpr float kTwoPi = 6.28318530718f;
const char *const kMeasure = "app_montecarlo";

inline float drift() { return (kRate - 0.5f * kVol * kVol) * kYears; }
inline float vol_t() { return kVol * std::sqrt(kYears); }

/// Uniforms of sample g: counters 2g and 2g + 1 (so at most 2^31 samples).
APPS_HD inline std::uint32_t counter(std::uint32_t g) { return 2u * g; }

/// Checks the partial sums of a sample of blocks against double, then the
/// price against the closed form within 6 standard errors (estimated from
/// the recomputed payoffs).
inline void check(const char *impl, std::size_t threads,
                  const std::vector<float> &partial) {
  const std::size_t blocks = partial.size();
  double total = 0;
  for (std::size_t b = 0; b < blocks; ++b) {
    if (!std::isfinite(partial[b]))
      apps::failf(kMeasure, impl, "block %zu: partial %g", b, partial[b]);
    total += partial[b];
  }
  double sum = 0, sum2 = 0, worst = 0;
  std::size_t drawn = 0;
  std::size_t count = apps::for_sample(blocks, 64, [&](std::size_t b) {
    double block = 0;
    for (std::size_t t = b * kBlock; t < (b + 1) * kBlock && t < threads; ++t)
      for (unsigned k = 0; k < kSamples; ++k) {
        std::uint32_t c = counter(std::uint32_t(t * kSamples + k));
        double u1 = apps::unit_open(apps::pcg_hash(c));
        double u2 = apps::unit_open(apps::pcg_hash(c + 1));
        double z = std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
        double st = kS0 * std::exp(double(drift()) + double(vol_t()) * z);
        double pay = std::fmax(st - kStrike, 0.0);
        block += pay;
        sum += pay;
        sum2 += pay * pay;
        ++drawn;
      }
    double err = std::fabs(partial[b] - block) / (1e-4 * block + 1e-3);
    worst = std::fmax(worst, err);
    if (!(err <= 1))
      apps::failf(kMeasure, impl, "block %zu: partial sum %.9g, expected %.9g",
                  b, partial[b], block);
  });
  const double samples = double(threads) * kSamples;
  const double discount = std::exp(-double(kRate) * kYears);
  const double price = discount * total / samples;
  const double mean = sum / drawn;
  const double stderr_ =
      discount * std::sqrt((sum2 / drawn - mean * mean) / samples);
  const double sq = std::sqrt(double(kYears));
  const double d1 = (std::log(double(kS0) / kStrike) +
                     (kRate + 0.5 * double(kVol) * kVol) * kYears) /
                    (double(kVol) * sq);
  const double d2 = d1 - double(kVol) * sq;
  const double exact =
      kS0 * 0.5 * std::erfc(-d1 / std::sqrt(2.0)) -
      kStrike * discount * 0.5 * std::erfc(-d2 / std::sqrt(2.0));
  if (!(std::fabs(price - exact) <= 6 * stderr_))
    apps::failf(kMeasure, impl,
                "price %.6f, closed form %.6f, standard error %.3g", price,
                exact, stderr_);
  char what[192];
  std::snprintf(what, sizeof what,
                "%zu of %zu blocks against double (worst %.2f of the "
                "tolerance); price %.5f, closed form %.5f, %.1f standard "
                "errors",
                count, blocks, worst, price, exact,
                std::fabs(price - exact) / stderr_);
  apps::checked(kMeasure, impl, what);
}

} // namespace montecarlo

#endif // OFFLOAD_BENCH_APPS_MONTECARLO_REF_HPP
