//===- bench/apps/xsbench/ref.hpp - cross-section lookups: data and check -===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// Macroscopic cross-section lookups in the structure of ANL's XSBench
// (Tramm et al., PHYSOR 2014; event-based, unionized energy grid): kNuclides
// nuclides, each with a sorted grid of G energy points (structure of 6
// doubles: the energy and 5 cross sections: total, elastic, absorption,
// fission, nu-fission); the unionized grid (every nuclide's energies,
// sorted) and its index grid (per union point and nuclide, the nuclide's
// last grid point at or below that energy). A lookup draws an energy and a
// material (12 materials with XSBench's nuclide counts and frequencies of
// its "small" problem), finds the energy in the unionized grid by binary
// search, and for every nuclide of the material interpolates its 5 cross
// sections between the two grid points around the energy and adds them,
// weighted by the nuclide's concentration. One thread per lookup; the 5
// macroscopic cross sections of every lookup are the one output.
//
// Everything is double, as in XSBench. Energies, cross sections and
// concentrations are hashes (XSBench's are random numbers too); a lookup's
// energy and material come from the PCG hash of its index, so both versions
// and the reference draw the same lookups.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_APPS_XSBENCH_REF_HPP
#define OFFLOAD_BENCH_APPS_XSBENCH_REF_HPP

#include "../common/apps.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

namespace xs {

constexpr unsigned kBlock = 256;
constexpr int kNuclides = 68, kMaterials = 12, kXS = 5;
constexpr std::size_t kGridPoints = 11303; ///< XSBench's default per nuclide
const char *const kMeasure = "app_xsbench";

/// XSBench's "small" problem: nuclides per material (fuel first) and how
/// often each material is drawn.
constexpr int kMaterialNuclides[kMaterials] = {34, 5,  4,  4,  27, 21,
                                               21, 21, 21, 21, 9,  9};
constexpr double kMaterialShare[kMaterials] = {0.140, 0.052, 0.275, 0.134,
                                               0.154, 0.064, 0.066, 0.055,
                                               0.008, 0.015, 0.025, 0.013};
constexpr int kMaxMaterialNuclides = 34;

struct grid_point {
  double energy, xs[kXS];
};

/// A lookup's 5 macroscopic cross sections.
struct macro_xs {
  double xs[kXS];
};

/// Random number `stream` of lookup i, in (0, 1), 53 bits.
APPS_HD inline double lookup_random(std::uint32_t i, std::uint32_t stream) {
  const std::uint32_t h1 = apps::pcg_hash(i ^ apps::pcg_hash(stream));
  const std::uint32_t h2 = apps::pcg_hash(h1 ^ 0x9e3779b9u);
  return (double(h1 >> 5) * 67108864.0 + double(h2 >> 6) + 0.5) *
         (1.0 / 9007199254740992.0);
}

struct data {
  std::size_t gp = 0;                 ///< grid points per nuclide
  std::vector<grid_point> nuclide;    ///< [nuclide * gp + point]
  std::vector<double> union_energy;   ///< kNuclides * gp, sorted
  std::vector<int> index;             ///< [union point * kNuclides + nuclide]
  std::vector<int> material_nuclides; ///< kMaterials
  std::vector<int> material_list;     ///< [material * kMax... + k]
  std::vector<double> concentration;  ///< likewise
  std::vector<double> material_cdf;   ///< kMaterials, the last 1
};

inline data make_data(std::size_t gp) {
  data d;
  d.gp = gp;
  const std::size_t nu = kNuclides * gp;
  d.nuclide.resize(nu);
  for (std::size_t k = 0; k < std::size_t(kNuclides); ++k) {
    std::vector<double> e(gp);
    for (std::size_t j = 0; j < gp; ++j)
      e[j] = lookup_random(std::uint32_t(k * gp + j), 101);
    std::sort(e.begin(), e.end());
    for (std::size_t j = 0; j < gp; ++j) {
      grid_point &p = d.nuclide[k * gp + j];
      p.energy = e[j];
      for (int x = 0; x < kXS; ++x)
        p.xs[x] = lookup_random(std::uint32_t(k * gp + j), 102 + x);
    }
  }
  d.union_energy.resize(nu);
  for (std::size_t u = 0; u < nu; ++u)
    d.union_energy[u] = d.nuclide[u].energy;
  std::sort(d.union_energy.begin(), d.union_energy.end());
  d.index.resize(nu * kNuclides);
  for (std::size_t k = 0; k < std::size_t(kNuclides); ++k) {
    const grid_point *g = &d.nuclide[k * gp];
    std::size_t j = 0;
    for (std::size_t u = 0; u < nu; ++u) {
      while (j + 1 < gp && g[j + 1].energy <= d.union_energy[u])
        ++j;
      d.index[u * kNuclides + k] = int(j);
    }
  }
  d.material_nuclides.assign(kMaterialNuclides, kMaterialNuclides + kMaterials);
  d.material_list.assign(kMaterials * kMaxMaterialNuclides, 0);
  d.concentration.assign(kMaterials * kMaxMaterialNuclides, 0.0);
  for (int m = 0; m < kMaterials; ++m) {
    // Distinct nuclides: the first of a shuffle of all.
    std::vector<int> all(kNuclides);
    std::iota(all.begin(), all.end(), 0);
    for (int k = kNuclides - 1; k > 0; --k)
      std::swap(all[std::size_t(k)],
                all[apps::pcg_hash(std::uint32_t(m * 1000 + k)) %
                    std::uint32_t(k + 1)]);
    for (int k = 0; k < kMaterialNuclides[m]; ++k) {
      d.material_list[std::size_t(m * kMaxMaterialNuclides + k)] =
          all[std::size_t(k)];
      d.concentration[std::size_t(m * kMaxMaterialNuclides + k)] =
          lookup_random(std::uint32_t(m * kMaxMaterialNuclides + k), 110);
    }
  }
  double sum = 0;
  for (int m = 0; m < kMaterials; ++m)
    d.material_cdf.push_back(sum += kMaterialShare[m]);
  d.material_cdf.back() = 1.0;
  return d;
}

/// Lookup i's cross sections, each nuclide's grid searched on its own (no
/// unionized grid): another route to the same grid points.
inline macro_xs reference(const data &d, std::size_t i, double &scale) {
  const double e = lookup_random(std::uint32_t(i), 1);
  const double r = lookup_random(std::uint32_t(i), 2);
  int m = 0;
  while (m < kMaterials - 1 && r > d.material_cdf[std::size_t(m)])
    ++m;
  macro_xs out{{0, 0, 0, 0, 0}};
  scale = 0;
  for (int k = 0; k < d.material_nuclides[std::size_t(m)]; ++k) {
    const std::size_t at = std::size_t(m * kMaxMaterialNuclides + k);
    const grid_point *g = &d.nuclide[std::size_t(d.material_list[at]) * d.gp];
    auto above =
        std::upper_bound(g, g + d.gp, e, [](double v, const grid_point &p) {
          return v < p.energy;
        });
    std::size_t j = above == g ? 0 : std::size_t(above - g) - 1;
    j = std::min(j, d.gp - 2);
    const double f = (g[j + 1].energy - e) / (g[j + 1].energy - g[j].energy);
    for (int x = 0; x < kXS; ++x) {
      const double v = g[j + 1].xs[x] - f * (g[j + 1].xs[x] - g[j].xs[x]);
      out.xs[x] += d.concentration[at] * v;
      scale += std::fabs(d.concentration[at] * v) +
               std::fabs(d.concentration[at] * f * g[j].xs[x]);
    }
  }
  return out;
}

/// A sample of lookups (2^16; all at small sizes): every cross section
/// within 1e-12 of the magnitude of its terms (double's rounding, fma).
inline void check(const char *impl, const data &d,
                  const std::vector<macro_xs> &got) {
  double worst = 0;
  std::size_t count = apps::for_sample(got.size(), 65536, [&](std::size_t i) {
    double scale;
    const macro_xs want = reference(d, i, scale);
    for (int x = 0; x < kXS; ++x) {
      const double err =
          std::fabs(got[i].xs[x] - want.xs[x]) / (1e-12 * (scale + 1e-300));
      worst = std::fmax(worst, err);
      if (!(err <= 1))
        apps::failf(kMeasure, impl,
                    "lookup %zu cross section %d: %.17g, expected %.17g", i, x,
                    got[i].xs[x], want.xs[x]);
    }
  });
  char what[128];
  std::snprintf(what, sizeof what,
                "%zu of %zu lookups against per-nuclide searches, worst "
                "error %.2f of the tolerance",
                count, got.size(), worst);
  apps::checked(kMeasure, impl, what);
}

} // namespace xs

#endif // OFFLOAD_BENCH_APPS_XSBENCH_REF_HPP
