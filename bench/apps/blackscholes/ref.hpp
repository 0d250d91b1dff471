//===- bench/apps/blackscholes/ref.hpp - Black-Scholes inputs and check ---===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// European call and put prices of n options (float), one thread per option,
// the normal distribution through erfc:
//   d1 = (log(S/X) + (r + v^2/2) T) / (v sqrt(T)),  d2 = d1 - v sqrt(T)
//   N(d) = erfc(-d / sqrt(2)) / 2
//   call = S N(d1) - X e^(-rT) N(d2),  put = X e^(-rT) N(-d2) - S N(-d1)
// (exp, log, sqrt, erfc). Inputs as in CUDA's BlackScholes sample: S in
// [5, 30), X in [1, 100), T in [0.25, 10). The reference recomputes a sample
// in double.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_APPS_BLACKSCHOLES_REF_HPP
#define OFFLOAD_BENCH_APPS_BLACKSCHOLES_REF_HPP

#include "../common/apps.hpp"

#include <cmath>
#include <vector>

namespace blackscholes {

constexpr float kRate = 0.02f, kVol = 0.30f;
const char *const kMeasure = "app_blackscholes";

inline void make_inputs(std::size_t n, std::vector<float> &s,
                        std::vector<float> &x, std::vector<float> &t) {
  s.resize(n);
  x.resize(n);
  t.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    s[i] = apps::uniform(11, i, 5.0f, 30.0f);
    x[i] = apps::uniform(12, i, 1.0f, 100.0f);
    t[i] = apps::uniform(13, i, 0.25f, 10.0f);
  }
}

/// Every price must be a number, and a sample must agree with double
/// within 2e-5 of the prices' scale (S + X): float's rounding of the inputs
/// and of exp/log/erfc, a few ulps each.
inline void check(const char *impl, const std::vector<float> &s,
                  const std::vector<float> &x, const std::vector<float> &t,
                  const std::vector<float> &call,
                  const std::vector<float> &put) {
  const std::size_t n = s.size();
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isfinite(call[i]) || !std::isfinite(put[i]))
      apps::failf(kMeasure, impl, "option %zu: call %g put %g", i, call[i],
                  put[i]);
  double worst = 0;
  std::size_t count = apps::for_sample(n, 1 << 20, [&](std::size_t i) {
    double S = s[i], X = x[i], T = t[i], r = kRate, v = kVol;
    double sq = std::sqrt(T);
    double d1 = (std::log(S / X) + (r + 0.5 * v * v) * T) / (v * sq);
    double d2 = d1 - v * sq;
    double n1 = 0.5 * std::erfc(-d1 / std::sqrt(2.0));
    double n2 = 0.5 * std::erfc(-d2 / std::sqrt(2.0));
    double e = std::exp(-r * T);
    double c = S * n1 - X * e * n2, p = X * e * (1 - n2) - S * (1 - n1);
    double tol = 2e-5 * (S + X);
    double err = std::fmax(std::fabs(call[i] - c), std::fabs(put[i] - p));
    worst = std::fmax(worst, err / tol);
    if (!(err <= tol))
      apps::failf(kMeasure, impl,
                  "option %zu (S %g X %g T %g): call %.9g put %.9g, expected "
                  "%.9g %.9g",
                  i, S, X, T, call[i], put[i], c, p);
  });
  char what[128];
  std::snprintf(what, sizeof what,
                "all %zu finite, %zu against double, worst error %.2f of the "
                "tolerance",
                n, count, worst);
  apps::checked(kMeasure, impl, what);
}

} // namespace blackscholes

#endif // OFFLOAD_BENCH_APPS_BLACKSCHOLES_REF_HPP
