//===- bench/apps/nbody/ref.hpp - n-body inputs, CPU reference and check --===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// One all-pairs gravity step of n bodies (float): every body's acceleration
// from all others with Plummer softening eps2,
//   a_i = sum_j m_j (p_j - p_i) / (|p_j - p_i|^2 + eps2)^(3/2),
// then v' = v + a dt, p' = p + v' dt. Both versions tile the bodies through
// block-shared memory (GPU Gems 3, ch. 31) and take 1/sqrt as one rsqrt.
// The reference recomputes a sample of bodies in double.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_APPS_NBODY_REF_HPP
#define OFFLOAD_BENCH_APPS_NBODY_REF_HPP

#include "../common/apps.hpp"

#include <cmath>
#include <vector>

namespace nbody {

/// x, y, z and mass (positions) or unused w (velocities): float4's layout.
struct alignas(16) body {
  float x, y, z, w;
};

constexpr unsigned kBlock = 256; ///< threads per block = bodies per tile
constexpr float kDt = 0.01f, kEps2 = 0.01f;
const char *const kMeasure = "app_nbody";

/// Bodies in [-1, 1)^3, masses summing to about 1, small velocities.
inline void make_inputs(std::size_t n, std::vector<body> &pos,
                        std::vector<body> &vel) {
  pos.resize(n);
  vel.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    pos[i] = {apps::uniform(1, i, -1, 1), apps::uniform(2, i, -1, 1),
              apps::uniform(3, i, -1, 1),
              apps::uniform(4, i, 0.5f, 1.5f) / float(n)};
    vel[i] = {apps::uniform(5, i, -0.1f, 0.1f),
              apps::uniform(6, i, -0.1f, 0.1f),
              apps::uniform(7, i, -0.1f, 0.1f), 0.0f};
  }
}

/// Checks the new positions and velocities of a sample of bodies against a
/// double-precision step. The float sums of n terms (and rsqrt's 2 ulp) are
/// judged against the sum of the terms' magnitudes, not against the net
/// acceleration, which cancels.
inline void check(const char *impl, const std::vector<body> &pos,
                  const std::vector<body> &vel, const std::vector<body> &pos1,
                  const std::vector<body> &vel1) {
  const std::size_t n = pos.size();
  double worst = 0;
  std::size_t count = apps::for_sample(n, 1024, [&](std::size_t i) {
    double a[3] = {0, 0, 0}, mag = 0;
    for (std::size_t j = 0; j < n; ++j) {
      double d[3] = {double(pos[j].x) - pos[i].x, double(pos[j].y) - pos[i].y,
                     double(pos[j].z) - pos[i].z};
      double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + kEps2;
      double s = pos[j].w / (r2 * std::sqrt(r2));
      for (int k = 0; k < 3; ++k)
        a[k] += d[k] * s;
      mag += s * std::sqrt(r2 - kEps2);
    }
    const float *v0 = &vel[i].x, *p0 = &pos[i].x, *v1 = &vel1[i].x,
                *p1 = &pos1[i].x;
    for (int k = 0; k < 3; ++k) {
      double v = v0[k] + a[k] * kDt, p = p0[k] + v * kDt;
      double tv = 2e-4 * mag * kDt + 1e-6 * std::fabs(v);
      double tp = tv * kDt + 1e-6 * std::fabs(p);
      double ev = std::fabs(v1[k] - v), ep = std::fabs(p1[k] - p);
      worst = std::fmax(worst, std::fmax(ev / tv, ep / tp));
      if (!(ev <= tv) || !(ep <= tp))
        apps::failf(kMeasure, impl,
                    "body %zu component %d: v %.9g p %.9g, expected v %.9g p "
                    "%.9g (tolerance %.3g, %.3g)",
                    i, k, v1[k], p1[k], v, p, tv, tp);
    }
    if (pos1[i].w != pos[i].w)
      apps::failf(kMeasure, impl, "body %zu: mass %.9g, expected %.9g", i,
                  pos1[i].w, pos[i].w);
  });
  char what[128];
  std::snprintf(what, sizeof what,
                "%zu of %zu bodies against double, worst error %.2f of the "
                "tolerance",
                count, n, worst);
  apps::checked(kMeasure, impl, what);
}

} // namespace nbody

#endif // OFFLOAD_BENCH_APPS_NBODY_REF_HPP
