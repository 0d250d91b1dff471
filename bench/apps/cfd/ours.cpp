//===- bench/apps/cfd/ours.cpp - Euler flux solver with offload() ---------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The solver of ref.hpp on a generated unstructured mesh of n cells, every
// array resident in an ofld::region. The far-field constants travel to the
// flux kernel by value as one struct (68 bytes: a private copy per launch),
// where cuda.cu reads them from __constant__ memory. One repetition is one
// iteration: 7 launches (step factor, then 3 x flux + time step), waited
// for once, as the CUDA version synchronises once.
//
//   apps_cfd_ours [--n=CELLS (196608)] [--iters=I (2000) | --reps=I]
//                 [--warmup=W (3)]
//
//===----------------------------------------------------------------------===//

#include "ref.hpp"

#include <cmath>
#include <span>
#include <vector>

using cfd::far_field;
using cfd::kDim;
using cfd::kNb;
using cfd::kVar;
using vec3 = cfd::vec3<float>;

/// Saves the variables as the iteration's start and computes the cell's
/// step factor.
[[offload::kernel]] void cfd_step_factor(std::span<const float> vars,
                                         std::span<const float> volume,
                                         APPS_OUT std::span<float> start,
                                         APPS_OUT std::span<float> step) {
  const std::size_t n = volume.size(), i = ofld::global_id();
  if (i >= n)
    return;
  float v[kVar];
  for (int k = 0; k < kVar; ++k) {
    v[k] = vars[i + k * n];
    start[i + k * n] = v[k];
  }
  const float d = v[cfd::kDensity];
  const vec3 u{v[1] / d, v[2] / d, v[3] / d};
  const float s2 = u.x * u.x + u.y * u.y + u.z * u.z;
  const float p = cfd::pressure(d, v[cfd::kEnergy], s2);
  step[i] = 0.5f / (std::sqrt(volume[i]) *
                    (std::sqrt(s2) + cfd::speed_of_sound(d, p)));
}

[[offload::kernel]] void cfd_flux(std::span<const int> neighbour,
                                  std::span<const float> normal,
                                  std::span<const float> vars, far_field ff,
                                  APPS_OUT std::span<float> flux) {
  const std::size_t n = vars.size() / kVar, i = ofld::global_id();
  if (i >= n)
    return;
  const float d = vars[i];
  const vec3 mom{vars[i + n], vars[i + 2 * n], vars[i + 3 * n]};
  const float e = vars[i + 4 * n];
  const vec3 u{mom.x / d, mom.y / d, mom.z / d};
  const float s2 = u.x * u.x + u.y * u.y + u.z * u.z, s = std::sqrt(s2);
  const float p = cfd::pressure(d, e, s2), c = cfd::speed_of_sound(d, p);
  vec3 fx, fy, fz, fe;
  cfd::flux_contribution(e, mom, p, u, fx, fy, fz, fe);
  float f0 = 0, f1 = 0, f2 = 0, f3 = 0, f4 = 0;
  for (int j = 0; j < kNb; ++j) {
    const int nb = neighbour[i + j * n];
    const vec3 nv{normal[i + (j + 0 * kNb) * n], normal[i + (j + 1 * kNb) * n],
                  normal[i + (j + 2 * kNb) * n]};
    vec3 mo, ox, oy, oz, oe;
    if (nb >= 0) {
      const std::size_t o = std::size_t(nb);
      const float d2 = vars[o], e2 = vars[o + 4 * n];
      mo = {vars[o + n], vars[o + 2 * n], vars[o + 3 * n]};
      const vec3 u2{mo.x / d2, mo.y / d2, mo.z / d2};
      const float s22 = u2.x * u2.x + u2.y * u2.y + u2.z * u2.z;
      const float p2 = cfd::pressure(d2, e2, s22);
      cfd::flux_contribution(e2, mo, p2, u2, ox, oy, oz, oe);
      const float nl = std::sqrt(nv.x * nv.x + nv.y * nv.y + nv.z * nv.z);
      const float diss = -nl * cfd::kSmoothing * 0.5f *
                         (s + std::sqrt(s22) + c + cfd::speed_of_sound(d2, p2));
      f0 += diss * (d - d2);
      f1 += diss * (mom.x - mo.x);
      f2 += diss * (mom.y - mo.y);
      f3 += diss * (mom.z - mo.z);
      f4 += diss * (e - e2);
    } else if (nb == cfd::kWing) {
      f1 += nv.x * p;
      f2 += nv.y * p;
      f3 += nv.z * p;
      continue;
    } else {
      mo = {ff.variable[1], ff.variable[2], ff.variable[3]};
      ox = ff.fc_momentum_x, oy = ff.fc_momentum_y, oz = ff.fc_momentum_z;
      oe = ff.fc_energy;
    }
    f0 += 0.5f * (nv.x * (mo.x + mom.x) + nv.y * (mo.y + mom.y) +
                  nv.z * (mo.z + mom.z));
    f1 += 0.5f *
          (nv.x * (ox.x + fx.x) + nv.y * (ox.y + fx.y) + nv.z * (ox.z + fx.z));
    f2 += 0.5f *
          (nv.x * (oy.x + fy.x) + nv.y * (oy.y + fy.y) + nv.z * (oy.z + fy.z));
    f3 += 0.5f *
          (nv.x * (oz.x + fz.x) + nv.y * (oz.y + fz.y) + nv.z * (oz.z + fz.z));
    f4 += 0.5f *
          (nv.x * (oe.x + fe.x) + nv.y * (oe.y + fe.y) + nv.z * (oe.z + fe.z));
  }
  flux[i] = f0;
  flux[i + n] = f1;
  flux[i + 2 * n] = f2;
  flux[i + 3 * n] = f3;
  flux[i + 4 * n] = f4;
}

[[offload::kernel]] void cfd_time_step(int stage, std::span<const float> start,
                                       std::span<const float> step,
                                       std::span<const float> flux,
                                       APPS_OUT std::span<float> vars) {
  const std::size_t n = step.size(), i = ofld::global_id();
  if (i >= n)
    return;
  const float factor = step[i] / float(cfd::kRK + 1 - stage);
  for (int k = 0; k < kVar; ++k)
    vars[i + k * n] = start[i + k * n] + factor * flux[i + k * n];
}

int main(int argc, char **argv) {
  const std::size_t iters = apps::take_option(argc, argv, "iters", 2000);
  bench::Args a = bench::parse(argc, argv, {int(iters), 3, 196608, ""});
  if (ofld::device_count() < 1)
    bench::no_device(argv[0], "ofld::device_count() is 0");
  const std::size_t n = a.n;
  const cfd::mesh m = cfd::make_mesh(n);
  const far_field ff = cfd::make_far_field();
  std::vector<float> vars = cfd::initial_variables(n, ff);
  const std::vector<float> initial = vars;
  std::vector<float> start(n * kVar), step(n), flux(n * kVar);
  apps::poison(start);
  apps::poison(step);
  apps::poison(flux);
  const ofld::launch shape{
      .grid = {unsigned((n + cfd::kBlock - 1) / cfd::kBlock)},
      .block = {cfd::kBlock}};
  auto iteration = [&] {
    offload(shape, cfd_step_factor, vars, m.volume, start, step);
    for (int stage = 0; stage < cfd::kRK; ++stage) {
      offload(shape, cfd_flux, m.neighbour, m.normal, vars, ff, flux);
      offload(shape, cfd_time_step, stage, start, step, flux, vars);
    }
    // Launches on resident data return once queued (stream order): wait
    // for them, as the CUDA version synchronises.
    ofld::wait();
  };
  bench::Samples s;
  std::vector<float> before;
  {
    ofld::region resident{std::span<const float>(m.volume),
                          std::span<const int>(m.neighbour),
                          std::span<const float>(m.normal),
                          std::span<float>(vars),
                          std::span<float>(start),
                          std::span<float>(step),
                          std::span<float>(flux)};
    // The first iteration is checked against the reference; the timed
    // ones continue from it.
    iteration();
    resident.update_from(std::span<float>(vars));
    cfd::check("ours", "iteration 1", m, ff, initial, 1, vars);
    s = bench::time_host(a, iteration);
    resident.update_from(std::span<float>(vars));
    before = vars;
    iteration();
  }
  cfd::check("ours", "last iteration", m, ff, before, 1, vars);
  char extra[64];
  std::snprintf(extra, sizeof extra, "size=%zu", n);
  s.report(cfd::kMeasure, "ours", 0, extra);
  return 0;
}
