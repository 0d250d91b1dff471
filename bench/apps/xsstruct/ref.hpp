//===- bench/apps/xsstruct/ref.hpp - XSBench through a struct --*- C++ -*-===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// Issue 27's first benchmark: XSBench's lookups (bench/apps/xsbench: data,
// reference, check) with the arrays kept in one struct, as XSBench's
// SimulationData keeps them, and passed whole to the kernel. The lookup of
// bench/apps/xsbench is here once, over plain pointers, for the three
// kernels: ours through a
// struct of spans, ours through separate span parameters, and CUDA through a
// struct of device pointers. Each kernel only unpacks its arguments, so
// what differs between them is how the arrays reach the kernel.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_APPS_XSSTRUCT_REF_HPP
#define OFFLOAD_BENCH_APPS_XSSTRUCT_REF_HPP

#include "../xsbench/ref.hpp"

namespace xs {

const char *const kStructMeasure = "app_xsstruct";

/// Lookup i's five cross sections (n_union points in the unionized grid).
APPS_HD inline macro_xs
lookup(std::size_t i, const double *union_energy, std::size_t n_union,
       const int *index, const grid_point *nuclide,
       const int *material_nuclides, const int *material_list,
       const double *concentration, const double *material_cdf, int gp) {
  const double e = lookup_random(std::uint32_t(i), 1);
  const double r = lookup_random(std::uint32_t(i), 2);
  int m = 0;
  while (m < kMaterials - 1 && r > material_cdf[m])
    ++m;
  // The last union point at or below e (the first one below the grid).
  std::size_t lo = 0, hi = n_union - 1;
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
    const std::size_t at = std::size_t(m * kMaxMaterialNuclides + k);
    const std::size_t nuc = std::size_t(material_list[at]);
    int j = index[lo * kNuclides + nuc];
    j = j < gp - 2 ? j : gp - 2;
    const grid_point &p0 = nuclide[nuc * std::size_t(gp) + std::size_t(j)];
    const grid_point &p1 = nuclide[nuc * std::size_t(gp) + std::size_t(j) + 1];
    const double f = (p1.energy - e) / (p1.energy - p0.energy);
    const double c = concentration[at];
    for (int x = 0; x < kXS; ++x)
      acc[x] += c * (p1.xs[x] - f * (p1.xs[x] - p0.xs[x]));
  }
  return macro_xs{{acc[0], acc[1], acc[2], acc[3], acc[4]}};
}

} // namespace xs

#endif // OFFLOAD_BENCH_APPS_XSSTRUCT_REF_HPP
