//===- bench/apps/cfd/ref.hpp - Euler flux solver: mesh, reference, check -===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// A finite-volume solver of the compressible Euler equations on an
// unstructured mesh, in the structure of Rodinia's cfd (euler3d, Corrigan et
// al., AIAA 2009-4001): every cell holds 5 conserved variables (density,
// momentum x/y/z, density energy), has 4 face neighbours (a cell index, or
// kWing: a slip wall, or kFarField: the free stream) and an inward face
// normal per neighbour whose length is the face's area. An iteration is
//   step factor: 0.5 / (sqrt(volume) (|u| + c)) per cell (also saves the
//     variables as the stage's start),
//   3 Runge-Kutta stages of flux (central flux of the Euler fluxes across
//     every face plus a scalar dissipation, smoothing 0.2) then time step
//     (variables = start + step factor / (4 - stage) * flux).
// Arrays are structures of arrays as in euler3d: variable v of cell i at
// [i + v n], neighbour j at [i + j n], normal component d of face j at
// [i + (j + d kNb) n]. The far-field state and its flux contributions are
// constants of the run (far_field): CUDA keeps them in __constant__ memory,
// ours passes the struct to the flux kernel by value.
//
// The mesh is generated, not read (Rodinia reads fvcorr.domn.193K): a strip
// of W x H quadrilateral cells (W ~ sqrt(4n/3)), a slip wall along the
// bottom, the free stream on the other three sides. Face normals and cell
// volumes are perturbed by a hash (cells not closed: every cell's flux is
// nonzero from the first iteration on), every cell lists its neighbours in
// a rotated order, and cells are numbered in a random order within stripes
// of 1024, so the kernels gather as on an unstructured mesh.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_APPS_CFD_REF_HPP
#define OFFLOAD_BENCH_APPS_CFD_REF_HPP

#include "../common/apps.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>
#include <vector>

namespace cfd {

constexpr int kDim = 3, kNb = 4, kVar = 5, kRK = 3;
constexpr int kDensity = 0, kMomentum = 1, kEnergy = 4;
constexpr int kWing = -1, kFarField = -2;
constexpr unsigned kBlock = 192; ///< euler3d's block length
constexpr float kGamma = 1.4f, kSmoothing = 0.2f;
constexpr double kMach = 1.2, kAngleDeg = 1.0;
const char *const kMeasure = "app_cfd";

/// x, y, z: CUDA's float3 (T = float) or the reference's double.
template <class T> struct vec3 {
  T x, y, z;
};

/// The free stream: its variables and its flux contributions (the Euler
/// fluxes' x, y and z columns of momentum x/y/z and density energy).
struct far_field {
  float variable[kVar];
  vec3<float> fc_momentum_x, fc_momentum_y, fc_momentum_z, fc_energy;
};

template <class T> APPS_HD inline T root(T x) {
  using std::sqrt;
  return sqrt(x);
}

template <class T> APPS_HD inline T pressure(T density, T energy, T speed_sqd) {
  return (T(kGamma) - T(1)) * (energy - T(0.5) * density * speed_sqd);
}

template <class T> APPS_HD inline T speed_of_sound(T density, T p) {
  return root(T(kGamma) * p / density);
}

/// The Euler fluxes of one state: rows momentum x/y/z and density energy.
template <class T>
APPS_HD inline void flux_contribution(T energy, vec3<T> momentum, T p,
                                      vec3<T> velocity, vec3<T> &fx,
                                      vec3<T> &fy, vec3<T> &fz, vec3<T> &fe) {
  fx = {velocity.x * momentum.x + p, velocity.x * momentum.y,
        velocity.x * momentum.z};
  fy = {fx.y, velocity.y * momentum.y + p, velocity.y * momentum.z};
  fz = {fx.z, fy.z, velocity.z * momentum.z + p};
  const T ep = energy + p;
  fe = {velocity.x * ep, velocity.y * ep, velocity.z * ep};
}

/// The free stream at Mach 1.2, 1 degree angle of attack, density 1.4 and
/// pressure 1, computed in double and rounded once.
inline far_field make_far_field() {
  const double a = kAngleDeg * 3.14159265358979323846 / 180.0;
  const double density = 1.4, p = 1.0;
  const double c = std::sqrt(double(kGamma) * p / density);
  const double speed = kMach * c;
  const vec3<double> vel{speed * std::cos(a), speed * std::sin(a), 0.0};
  const vec3<double> mom{density * vel.x, density * vel.y, density * vel.z};
  const double energy = density * 0.5 * speed * speed + p / (kGamma - 1.0);
  vec3<double> fx, fy, fz, fe;
  flux_contribution(energy, mom, p, vel, fx, fy, fz, fe);
  auto f = [](vec3<double> v) {
    return vec3<float>{float(v.x), float(v.y), float(v.z)};
  };
  return {
      {float(density), float(mom.x), float(mom.y), float(mom.z), float(energy)},
      f(fx),
      f(fy),
      f(fz),
      f(fe)};
}

struct mesh {
  std::size_t n = 0;
  std::vector<float> volume;  ///< [i]
  std::vector<int> neighbour; ///< [i + j n]: a cell, kWing or kFarField
  std::vector<float> normal;  ///< [i + (j + d kNb) n], inward
};

inline mesh make_mesh(std::size_t n) {
  mesh m;
  m.n = n;
  const std::size_t w =
      std::max<std::size_t>(2, std::size_t(std::sqrt(4.0 * double(n) / 3.0)));
  // Storage index of grid cell k: a random order within stripes of 1024.
  std::vector<std::size_t> at(n);
  std::iota(at.begin(), at.end(), std::size_t(0));
  for (std::size_t s = 0; s < n; s += 1024) {
    std::size_t e = std::min(n, s + 1024);
    for (std::size_t k = e - 1; k > s; --k)
      std::swap(
          at[k],
          at[s + apps::pcg_hash(std::uint32_t(k) ^ 0x5bd1e995u) % (k - s + 1)]);
  }
  // A face's perturbation: the same for both cells of an inner face.
  auto wobble = [](std::size_t face, std::uint32_t seed) {
    return apps::uniform(seed, face, -0.15f, 0.15f);
  };
  auto len = [](std::size_t face) {
    return apps::uniform(41, face, 0.45f, 0.6f);
  };
  m.volume.resize(n);
  m.neighbour.assign(n * kNb, kFarField);
  m.normal.assign(n * kNb * kDim, 0.0f);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t x = k % w, y = k / w, i = at[k];
    m.volume[i] = apps::uniform(43, k, 0.85f, 1.15f);
    // West, east, south, north: neighbour (grid index) and inward normal.
    // Face ids: 2k is the east face of k, 2k + 1 its north face.
    struct face {
      long nb;
      float nx, ny, nz;
    } f[kNb];
    {
      std::size_t id = x > 0 ? 2 * (k - 1) : 2 * n + 4 * k;
      float l = len(id);
      f[0] = {x > 0 ? long(k - 1) : kFarField, l, l * wobble(id, 44),
              l * wobble(id, 45)};
    }
    {
      bool in = x + 1 < w && k + 1 < n;
      std::size_t id = in ? 2 * k : 2 * n + 4 * k + 1;
      float l = len(id);
      f[1] = {in ? long(k + 1) : kFarField, -l, -l * wobble(id, 44),
              -l * wobble(id, 45)};
    }
    {
      std::size_t id = y > 0 ? 2 * (k - w) + 1 : 2 * n + 4 * k + 2;
      float l = len(id);
      f[2] = {y > 0 ? long(k - w) : kWing, l * wobble(id, 46), l,
              l * wobble(id, 47)};
    }
    {
      bool in = k + w < n;
      std::size_t id = in ? 2 * k + 1 : 2 * n + 4 * k + 3;
      float l = len(id);
      f[3] = {in ? long(k + w) : kFarField, -l * wobble(id, 46), -l,
              -l * wobble(id, 47)};
    }
    const std::size_t rot = apps::pcg_hash(std::uint32_t(k) + 7u) % kNb;
    for (int j = 0; j < kNb; ++j) {
      const face &g = f[(std::size_t(j) + rot) % kNb];
      m.neighbour[i + j * n] =
          g.nb >= 0 ? int(at[std::size_t(g.nb)]) : int(g.nb);
      m.normal[i + (j + 0 * kNb) * n] = g.nx;
      m.normal[i + (j + 1 * kNb) * n] = g.ny;
      m.normal[i + (j + 2 * kNb) * n] = g.nz;
    }
  }
  return m;
}

/// Every cell at the free stream (euler3d's initial state).
inline std::vector<float> initial_variables(std::size_t n,
                                            const far_field &ff) {
  std::vector<float> v(n * kVar);
  for (int k = 0; k < kVar; ++k)
    std::fill(v.begin() + std::ptrdiff_t(k * n),
              v.begin() + std::ptrdiff_t((k + 1) * n), ff.variable[k]);
  return v;
}

/// One iteration of the solver in double, every cell, from `vars`.
inline void reference_iteration(const mesh &m, const far_field &ff,
                                std::vector<double> &vars) {
  const std::size_t n = m.n;
  const std::vector<double> start = vars;
  std::vector<double> step(n), flux(n * kVar);
  auto state = [&](const std::vector<double> &v, std::size_t i, double &d,
                   vec3<double> &mom, double &e) {
    d = v[i + kDensity * n];
    mom = {v[i + (kMomentum + 0) * n], v[i + (kMomentum + 1) * n],
           v[i + (kMomentum + 2) * n]};
    e = v[i + kEnergy * n];
  };
  for (std::size_t i = 0; i < n; ++i) {
    double d, e;
    vec3<double> mom;
    state(start, i, d, mom, e);
    vec3<double> u{mom.x / d, mom.y / d, mom.z / d};
    double s2 = u.x * u.x + u.y * u.y + u.z * u.z;
    double p = pressure(d, e, s2);
    step[i] = 0.5 / (std::sqrt(double(m.volume[i])) *
                     (std::sqrt(s2) + speed_of_sound(d, p)));
  }
  const vec3<double> ffx{ff.fc_momentum_x.x, ff.fc_momentum_x.y,
                         ff.fc_momentum_x.z},
      ffy{ff.fc_momentum_y.x, ff.fc_momentum_y.y, ff.fc_momentum_y.z},
      ffz{ff.fc_momentum_z.x, ff.fc_momentum_z.y, ff.fc_momentum_z.z},
      ffe{ff.fc_energy.x, ff.fc_energy.y, ff.fc_energy.z};
  for (int stage = 0; stage < kRK; ++stage) {
    for (std::size_t i = 0; i < n; ++i) {
      double d, e;
      vec3<double> mom;
      state(vars, i, d, mom, e);
      vec3<double> u{mom.x / d, mom.y / d, mom.z / d};
      double s2 = u.x * u.x + u.y * u.y + u.z * u.z;
      double p = pressure(d, e, s2), c = speed_of_sound(d, p);
      vec3<double> fx, fy, fz, fe;
      flux_contribution(e, mom, p, u, fx, fy, fz, fe);
      double f[kVar] = {0, 0, 0, 0, 0};
      for (int j = 0; j < kNb; ++j) {
        const int nb = m.neighbour[i + j * n];
        const vec3<double> nv{m.normal[i + (j + 0 * kNb) * n],
                              m.normal[i + (j + 1 * kNb) * n],
                              m.normal[i + (j + 2 * kNb) * n]};
        const double nl = std::sqrt(nv.x * nv.x + nv.y * nv.y + nv.z * nv.z);
        vec3<double> mom_o, ox, oy, oz, oe;
        if (nb >= 0) {
          double d2, e2;
          state(vars, std::size_t(nb), d2, mom_o, e2);
          vec3<double> u2{mom_o.x / d2, mom_o.y / d2, mom_o.z / d2};
          double s22 = u2.x * u2.x + u2.y * u2.y + u2.z * u2.z;
          double p2 = pressure(d2, e2, s22);
          flux_contribution(e2, mom_o, p2, u2, ox, oy, oz, oe);
          double diss =
              -nl * kSmoothing * 0.5 *
              (std::sqrt(s2) + std::sqrt(s22) + c + speed_of_sound(d2, p2));
          f[0] += diss * (d - d2);
          f[1] += diss * (mom.x - mom_o.x);
          f[2] += diss * (mom.y - mom_o.y);
          f[3] += diss * (mom.z - mom_o.z);
          f[4] += diss * (e - e2);
        } else if (nb == kWing) {
          f[1] += nv.x * p;
          f[2] += nv.y * p;
          f[3] += nv.z * p;
          continue;
        } else {
          mom_o = {ff.variable[kMomentum], ff.variable[kMomentum + 1],
                   ff.variable[kMomentum + 2]};
          ox = ffx, oy = ffy, oz = ffz, oe = ffe;
        }
        // Central flux: the two states' fluxes averaged, across the normal.
        f[0] += 0.5 * (nv.x * (mom_o.x + mom.x) + nv.y * (mom_o.y + mom.y) +
                       nv.z * (mom_o.z + mom.z));
        f[1] += 0.5 * (nv.x * (ox.x + fx.x) + nv.y * (ox.y + fx.y) +
                       nv.z * (ox.z + fx.z));
        f[2] += 0.5 * (nv.x * (oy.x + fy.x) + nv.y * (oy.y + fy.y) +
                       nv.z * (oy.z + fy.z));
        f[3] += 0.5 * (nv.x * (oz.x + fz.x) + nv.y * (oz.y + fz.y) +
                       nv.z * (oz.z + fz.z));
        f[4] += 0.5 * (nv.x * (oe.x + fe.x) + nv.y * (oe.y + fe.y) +
                       nv.z * (oe.z + fe.z));
      }
      for (int k = 0; k < kVar; ++k)
        flux[i + k * n] = f[k];
    }
    for (std::size_t i = 0; i < n; ++i) {
      const double factor = step[i] / double(kRK + 1 - stage);
      for (int k = 0; k < kVar; ++k)
        vars[i + k * n] = start[i + k * n] + factor * flux[i + k * n];
    }
  }
}

/// Checks `got`, the device's variables after `iters` iterations from
/// `from`, against the same iterations in double: every variable of every
/// cell within 4e-6 of the free stream's magnitude of that variable (float's
/// rounding of sums of flux terms of that size) plus 4e-6 relative; the
/// density and the pressure positive.
inline void check(const char *impl, const char *when, const mesh &m,
                  const far_field &ff, const std::vector<float> &from,
                  int iters, const std::vector<float> &got) {
  const std::size_t n = m.n;
  std::vector<double> want(from.begin(), from.end());
  for (int it = 0; it < iters; ++it)
    reference_iteration(m, ff, want);
  // Momentum y and z are small in the free stream: their scale is |momentum|.
  const double mom = std::sqrt(double(ff.variable[1]) * ff.variable[1] +
                               double(ff.variable[2]) * ff.variable[2]);
  const double scale[kVar] = {ff.variable[0], mom, mom, mom, ff.variable[4]};
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    for (int k = 0; k < kVar; ++k) {
      const double w = want[i + k * n], g = got[i + k * n];
      const double tol = 4e-6 * (scale[k] + std::fabs(w));
      const double err = std::fabs(g - w) / tol;
      worst = std::fmax(worst, err);
      if (!(err <= 1))
        apps::failf(kMeasure, impl,
                    "%s: cell %zu variable %d is %.9g, expected %.9g "
                    "(tolerance %.3g)",
                    when, i, k, g, w, tol);
    }
    const double d = got[i], s2 = (double(got[i + n]) * got[i + n] +
                                   double(got[i + 2 * n]) * got[i + 2 * n] +
                                   double(got[i + 3 * n]) * got[i + 3 * n]) /
                                  (d * d);
    if (!(d > 0) || !(pressure(d, double(got[i + 4 * n]), s2) > 0))
      apps::failf(kMeasure, impl, "%s: cell %zu: density %.9g, pressure <= 0",
                  when, i, d);
  }
  char what[160];
  std::snprintf(what, sizeof what,
                "%s: %zu cells x %d iteration(s) against double, worst error "
                "%.3f of the tolerance",
                when, n, iters, worst);
  apps::checked(kMeasure, impl, what);
}

} // namespace cfd

#endif // OFFLOAD_BENCH_APPS_CFD_REF_HPP
