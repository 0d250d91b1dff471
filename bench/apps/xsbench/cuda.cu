//===- bench/apps/xsbench/cuda.cu - cross-section lookups in CUDA ---------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The baseline of xsbench/ours.cpp: the same lookup kernel in blocks of 256
// over the same seven read-only arrays, cudaMalloc'ed once, as pointers.
//
//===----------------------------------------------------------------------===//

#include "../common/cuda_time.cuh"
#include "ref.hpp"

#include <cstdint>
#include <vector>

using xs::grid_point;
using xs::kXS;
using xs::macro_xs;

__global__ void xs_lookup(const double *union_energy, int n_union,
                          const int *index, const grid_point *nuclide,
                          const int *material_nuclides,
                          const int *material_list, const double *concentration,
                          const double *material_cdf, int gp, macro_xs *out,
                          int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const double e = xs::lookup_random(std::uint32_t(i), 1);
  const double r = xs::lookup_random(std::uint32_t(i), 2);
  int m = 0;
  while (m < xs::kMaterials - 1 && r > material_cdf[m])
    ++m;
  // The last union point at or below e (the first one below the grid).
  std::size_t lo = 0, hi = std::size_t(n_union) - 1;
  while (hi - lo > 1) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (union_energy[mid] > e)
      hi = mid;
    else
      lo = mid;
  }
  double acc[kXS] = {0, 0, 0, 0, 0};
  const int count = material_nuclides[m];
  for (int k = 0; k < count; ++k) {
    const std::size_t at = std::size_t(m * xs::kMaxMaterialNuclides + k);
    const std::size_t nuc = std::size_t(material_list[at]);
    int j = index[lo * xs::kNuclides + nuc];
    j = j < gp - 2 ? j : gp - 2;
    const grid_point &p0 = nuclide[nuc * std::size_t(gp) + std::size_t(j)];
    const grid_point &p1 = nuclide[nuc * std::size_t(gp) + std::size_t(j) + 1];
    const double f = (p1.energy - e) / (p1.energy - p0.energy);
    const double c = concentration[at];
    for (int x = 0; x < kXS; ++x)
      acc[x] += c * (p1.xs[x] - f * (p1.xs[x] - p0.xs[x]));
  }
  out[i] = macro_xs{{acc[0], acc[1], acc[2], acc[3], acc[4]}};
}

int main(int argc, char **argv) {
  const std::size_t gp =
      apps::take_option(argc, argv, "gridpoints", xs::kGridPoints);
  bench::Args a = bench::parse(argc, argv, {20, 3, 17000000, ""});
  apps::require_cuda_device(argv[0]);
  if (gp < 2)
    bench::usage(argv[0], a);
  const std::size_t n = a.n;
  const xs::data d = xs::make_data(gp);
  double *dunion =
      apps::to_device(d.union_energy.data(), d.union_energy.size());
  int *dindex = apps::to_device(d.index.data(), d.index.size());
  grid_point *dnuclide = apps::to_device(d.nuclide.data(), d.nuclide.size());
  int *dcount = apps::to_device(d.material_nuclides.data(), xs::kMaterials);
  int *dlist = apps::to_device(d.material_list.data(), d.material_list.size());
  double *dconc =
      apps::to_device(d.concentration.data(), d.concentration.size());
  double *dcdf = apps::to_device(d.material_cdf.data(), xs::kMaterials);
  macro_xs *dout = apps::poisoned_output<macro_xs>(n);
  const unsigned grid = unsigned((n + xs::kBlock - 1) / xs::kBlock);
  char extra[64];
  std::snprintf(extra, sizeof extra, "size=%zu", n);
  apps::time_cuda(a, xs::kMeasure, extra, [&] {
    xs_lookup<<<grid, xs::kBlock>>>(dunion, int(d.union_energy.size()), dindex,
                                    dnuclide, dcount, dlist, dconc, dcdf,
                                    int(gp), dout, int(n));
  });
  std::vector<macro_xs> out(n);
  apps::from_device(out.data(), dout, n);
  xs::check("cuda", d, out);
  for (void *p :
       {(void *)dunion, (void *)dindex, (void *)dnuclide, (void *)dcount,
        (void *)dlist, (void *)dconc, (void *)dcdf, (void *)dout})
    CK(cudaFree(p));
  return 0;
}
