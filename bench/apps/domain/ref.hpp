//===- bench/apps/domain/ref.hpp - a LULESH-style domain: data and check -===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// Issue 27's second benchmark: a hydrodynamics step in the structure of
// LULESH (LLNL) and TeaLeaf, whose Domain/Chunk keeps every field in one
// struct that every kernel takes. Twenty arrays of n doubles: the nodes'
// positions, velocities, accelerations and forces (x, y, z each) and
// masses; the elements' energy, pressure, artificial viscosity, relative
// volume, volume change, velocity divergence and sound speed. One step is
// two kernels: the nodes' update (LULESH's CalcAccelerationForNodes,
// CalcVelocityForNodes, CalcPositionForNodes) and the elements' equation of
// state (an ideal gas: EvalEOSForElems, simplified). The math of both is
// here once (APPS_HD, over pointers), for ours and CUDA and the CPU
// reference; the versions differ in how the arrays reach the kernels.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_APPS_DOMAIN_REF_HPP
#define OFFLOAD_BENCH_APPS_DOMAIN_REF_HPP

#include "../common/apps.hpp"

#include <cmath>
#include <cstddef>
#include <vector>

namespace dom {

constexpr unsigned kBlock = 256;
constexpr double kDt = 1e-3, kGamma = 1.4, kQCoef = 2.0;
const char *const kMeasure = "app_domain";
const char *const kLaunchMeasure = "app_domain_launch";

/// Node i: acceleration from force and mass, then velocity and position.
APPS_HD inline void update_node(std::size_t i, double *x, double *y, double *z,
                                double *xd, double *yd, double *zd, double *xdd,
                                double *ydd, double *zdd, const double *fx,
                                const double *fy, const double *fz,
                                const double *mass, double dt) {
  const double inv = 1.0 / mass[i];
  xdd[i] = fx[i] * inv;
  ydd[i] = fy[i] * inv;
  zdd[i] = fz[i] * inv;
  xd[i] += xdd[i] * dt;
  yd[i] += ydd[i] * dt;
  zd[i] += zdd[i] * dt;
  x[i] += xd[i] * dt;
  y[i] += yd[i] * dt;
  z[i] += zd[i] * dt;
}

/// Element i: new volume, work of pressure and viscosity, ideal-gas
/// pressure, viscosity under compression, sound speed.
APPS_HD inline void update_element(std::size_t i, double *e, double *p,
                                   double *q, double *v, double *delv,
                                   const double *vdov, double *ss, double dt) {
  const double vnew = v[i] * (1.0 + dt * vdov[i]);
  const double dv = vnew - v[i];
  double en = e[i] - 0.5 * dv * (p[i] + q[i]);
  en = en > 0.0 ? en : 0.0;
  const double pn = (kGamma - 1.0) * en / vnew;
  delv[i] = dv;
  v[i] = vnew;
  e[i] = en;
  p[i] = pn;
  q[i] = dv < 0.0 ? kQCoef * dv * dv / vnew : 0.0;
  const double c2 = kGamma * pn * vnew;
  ss[i] = std::sqrt(c2 > 1e-12 ? c2 : 1e-12);
}

/// The twenty fields, host side.
struct fields {
  std::vector<double> x, y, z, xd, yd, zd, xdd, ydd, zdd, fx, fy, fz, mass;
  std::vector<double> e, p, q, v, delv, vdov, ss;

  /// Every field, in declaration order (for the checks and copies).
  std::vector<std::vector<double> *> all() {
    return {&x,  &y,  &z,    &xd, &yd, &zd, &xdd, &ydd,  &zdd,  &fx,
            &fy, &fz, &mass, &e,  &p,  &q,  &v,   &delv, &vdov, &ss};
  }
};

constexpr const char *kNames[20] = {
    "x",  "y",  "z",    "xd", "yd", "zd", "xdd", "ydd",  "zdd",  "fx",
    "fy", "fz", "mass", "e",  "p",  "q",  "v",   "delv", "vdov", "ss"};

/// The initial state: forces and divergence of both signs, masses, energies
/// and volumes positive.
inline fields make_fields(std::size_t n) {
  fields f;
  std::vector<std::vector<double> *> all = f.all();
  for (std::size_t k = 0; k < all.size(); ++k) {
    all[k]->resize(n);
    const bool positive = k == 12 || k == 13 || k == 16; // mass, e, v
    for (std::size_t i = 0; i < n; ++i)
      (*all[k])[i] =
          positive ? double(apps::uniform(std::uint32_t(k), i, 0.5f, 1.5f))
                   : double(apps::uniform(std::uint32_t(k), i, -1.0f, 1.0f));
  }
  return f;
}

/// `steps` steps of both kernels on the CPU.
inline void reference(fields &f, int steps) {
  for (int s = 0; s < steps; ++s)
    for (std::size_t i = 0; i < f.x.size(); ++i) {
      update_node(i, f.x.data(), f.y.data(), f.z.data(), f.xd.data(),
                  f.yd.data(), f.zd.data(), f.xdd.data(), f.ydd.data(),
                  f.zdd.data(), f.fx.data(), f.fy.data(), f.fz.data(),
                  f.mass.data(), kDt);
      update_element(i, f.e.data(), f.p.data(), f.q.data(), f.v.data(),
                     f.delv.data(), f.vdov.data(), f.ss.data(), kDt);
    }
}

/// Every field of `got` against `want`: relative 1e-9 of the magnitude
/// (fma contraction over the steps).
inline void check(const char *impl, fields &got, fields &want, int steps) {
  std::vector<std::vector<double> *> g = got.all(), w = want.all();
  for (std::size_t k = 0; k < g.size(); ++k)
    for (std::size_t i = 0; i < g[k]->size(); ++i) {
      const double a = (*g[k])[i], b = (*w[k])[i];
      if (!(std::fabs(a - b) <= 1e-9 * (std::fabs(b) + 1.0)))
        apps::failf(kMeasure, impl,
                    "%s[%zu] after %d steps: %.17g, expected %.17g", kNames[k],
                    i, steps, a, b);
    }
  char what[96];
  std::snprintf(what, sizeof what, "20 fields of %zu after %d steps",
                got.x.size(), steps);
  apps::checked(kMeasure, impl, what);
}

} // namespace dom

#endif // OFFLOAD_BENCH_APPS_DOMAIN_REF_HPP
