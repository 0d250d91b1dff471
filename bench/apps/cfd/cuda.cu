//===- bench/apps/cfd/cuda.cu - Euler flux solver in CUDA -----------------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The baseline of cfd/ours.cpp: the same three kernels in blocks of 192,
// the far-field constants in __constant__ memory (as Rodinia's euler3d keeps
// them), one iteration's 7 launches waited for once.
//
//===----------------------------------------------------------------------===//

#include "../common/cuda_time.cuh"
#include "ref.hpp"

#include <vector>

using cfd::far_field;
using cfd::kNb;
using cfd::kVar;
using vec3 = cfd::vec3<float>;

__constant__ far_field c_ff;

__global__ void cfd_step_factor(const float *vars, const float *volume,
                                float *start, float *step, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
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
  step[i] = 0.5f / (sqrtf(volume[i]) * (sqrtf(s2) + cfd::speed_of_sound(d, p)));
}

__global__ void cfd_flux(const int *neighbour, const float *normal,
                         const float *vars, float *flux, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const float d = vars[i];
  const vec3 mom{vars[i + n], vars[i + 2 * n], vars[i + 3 * n]};
  const float e = vars[i + 4 * n];
  const vec3 u{mom.x / d, mom.y / d, mom.z / d};
  const float s2 = u.x * u.x + u.y * u.y + u.z * u.z, s = sqrtf(s2);
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
      const float d2 = vars[nb], e2 = vars[nb + 4 * n];
      mo = {vars[nb + n], vars[nb + 2 * n], vars[nb + 3 * n]};
      const vec3 u2{mo.x / d2, mo.y / d2, mo.z / d2};
      const float s22 = u2.x * u2.x + u2.y * u2.y + u2.z * u2.z;
      const float p2 = cfd::pressure(d2, e2, s22);
      cfd::flux_contribution(e2, mo, p2, u2, ox, oy, oz, oe);
      const float nl = sqrtf(nv.x * nv.x + nv.y * nv.y + nv.z * nv.z);
      const float diss = -nl * cfd::kSmoothing * 0.5f *
                         (s + sqrtf(s22) + c + cfd::speed_of_sound(d2, p2));
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
      mo = {c_ff.variable[1], c_ff.variable[2], c_ff.variable[3]};
      ox = c_ff.fc_momentum_x, oy = c_ff.fc_momentum_y;
      oz = c_ff.fc_momentum_z, oe = c_ff.fc_energy;
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

__global__ void cfd_time_step(int stage, const float *start, const float *step,
                              const float *flux, float *vars, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const float factor = step[i] / float(cfd::kRK + 1 - stage);
  for (int k = 0; k < kVar; ++k)
    vars[i + k * n] = start[i + k * n] + factor * flux[i + k * n];
}

int main(int argc, char **argv) {
  const std::size_t iters = apps::take_option(argc, argv, "iters", 2000);
  bench::Args a = bench::parse(argc, argv, {int(iters), 3, 196608, ""});
  apps::require_cuda_device(argv[0]);
  const std::size_t n = a.n;
  const cfd::mesh m = cfd::make_mesh(n);
  const far_field ff = cfd::make_far_field();
  std::vector<float> vars = cfd::initial_variables(n, ff);
  const std::vector<float> initial = vars;
  CK(cudaMemcpyToSymbol(c_ff, &ff, sizeof ff));
  float *dvolume = apps::to_device(m.volume.data(), n);
  int *dneighbour = apps::to_device(m.neighbour.data(), n * kNb);
  float *dnormal = apps::to_device(m.normal.data(), n * kNb * cfd::kDim);
  float *dvars = apps::to_device(vars.data(), n * kVar);
  float *dstart = apps::poisoned_output<float>(n * kVar);
  float *dstep = apps::poisoned_output<float>(n);
  float *dflux = apps::poisoned_output<float>(n * kVar);
  const unsigned grid = unsigned((n + cfd::kBlock - 1) / cfd::kBlock);
  const int ni = int(n);
  auto launch = [&] {
    cfd_step_factor<<<grid, cfd::kBlock>>>(dvars, dvolume, dstart, dstep, ni);
    for (int stage = 0; stage < cfd::kRK; ++stage) {
      cfd_flux<<<grid, cfd::kBlock>>>(dneighbour, dnormal, dvars, dflux, ni);
      cfd_time_step<<<grid, cfd::kBlock>>>(stage, dstart, dstep, dflux, dvars,
                                           ni);
    }
  };
  // The first iteration is checked; the timed ones continue from it.
  launch();
  CK(cudaGetLastError());
  apps::from_device(vars.data(), dvars, n * kVar);
  cfd::check("cuda", "iteration 1", m, ff, initial, 1, vars);
  char extra[64];
  std::snprintf(extra, sizeof extra, "size=%zu", n);
  apps::time_cuda(a, cfd::kMeasure, extra, launch);
  apps::from_device(vars.data(), dvars, n * kVar);
  const std::vector<float> before = vars;
  launch();
  CK(cudaGetLastError());
  apps::from_device(vars.data(), dvars, n * kVar);
  cfd::check("cuda", "last iteration", m, ff, before, 1, vars);
  for (void *p : {(void *)dvolume, (void *)dneighbour, (void *)dnormal,
                  (void *)dvars, (void *)dstart, (void *)dstep, (void *)dflux})
    CK(cudaFree(p));
  return 0;
}
