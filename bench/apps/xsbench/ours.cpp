//===- bench/apps/xsbench/ours.cpp - cross-section lookups with offload() -===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The lookups of ref.hpp, one thread each: the seven read-only arrays (the
// unionized grid, its index grid, the nuclide grids, the materials' nuclide
// counts, lists and concentrations, the materials' distribution) are seven
// std::span<const T> parameters, resident in an ofld::region, the results
// one [[offload::out]] span. One repetition is one offload() call.
//
//   apps_xsbench_ours [--n=LOOKUPS (17000000)] [--gridpoints=G (11303)]
//                     [--reps=R (20)] [--warmup=W (3)]
//
//===----------------------------------------------------------------------===//

#include "ref.hpp"

#include <cstdint>
#include <span>
#include <vector>

using xs::grid_point;
using xs::kXS;
using xs::macro_xs;

[[offload::kernel]] void xs_lookup(std::span<const double> union_energy,
                                   std::span<const int> index,
                                   std::span<const grid_point> nuclide,
                                   std::span<const int> material_nuclides,
                                   std::span<const int> material_list,
                                   std::span<const double> concentration,
                                   std::span<const double> material_cdf, int gp,
                                   APPS_OUT std::span<macro_xs> out) {
  const std::size_t i = ofld::global_id();
  if (i >= out.size())
    return;
  const double e = xs::lookup_random(std::uint32_t(i), 1);
  const double r = xs::lookup_random(std::uint32_t(i), 2);
  int m = 0;
  while (m < xs::kMaterials - 1 && r > material_cdf[std::size_t(m)])
    ++m;
  // The last union point at or below e (the first one below the grid).
  std::size_t lo = 0, hi = union_energy.size() - 1;
  while (hi - lo > 1) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (union_energy[mid] > e)
      hi = mid;
    else
      lo = mid;
  }
  double acc[kXS] = {0, 0, 0, 0, 0};
  const int count = material_nuclides[std::size_t(m)];
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
  if (ofld::device_count() < 1)
    bench::no_device(argv[0], "ofld::device_count() is 0");
  if (gp < 2)
    bench::usage(argv[0], a);
  const std::size_t n = a.n;
  const xs::data d = xs::make_data(gp);
  std::vector<macro_xs> out(n);
  apps::poison(out);
  const ofld::launch shape{
      .grid = {unsigned((n + xs::kBlock - 1) / xs::kBlock)},
      .block = {xs::kBlock}};
  bench::Samples s;
  {
    // The results go in poisoned and come back at the closing brace.
    ofld::region resident{std::span<const double>(d.union_energy),
                          std::span<const int>(d.index),
                          std::span<const grid_point>(d.nuclide),
                          std::span<const int>(d.material_nuclides),
                          std::span<const int>(d.material_list),
                          std::span<const double>(d.concentration),
                          std::span<const double>(d.material_cdf),
                          std::span<macro_xs>(out)};
    s = bench::time_host(a, [&] {
      offload(shape, xs_lookup, d.union_energy, d.index, d.nuclide,
              d.material_nuclides, d.material_list, d.concentration,
              d.material_cdf, int(gp), out);
      // Launches on resident data return once queued (stream order):
      // wait for them, as the CUDA version synchronises.
      ofld::wait();
    });
  }
  xs::check("ours", d, out);
  char extra[64];
  std::snprintf(extra, sizeof extra, "size=%zu", n);
  s.report(xs::kMeasure, "ours", 0, extra);
  return 0;
}
