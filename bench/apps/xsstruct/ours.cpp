//===- bench/apps/xsstruct/ours.cpp - XSBench lookups through a struct ----===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// Issue 27: the lookups of bench/apps/xsbench with XSBench's arrays in one
// struct of spans (seven read-only ones, the results an [[offload::out]]
// one), passed to the kernel as `const simulation_data &` and resident in an
// ofld::region that holds the struct (`ofld::region r{sd}`: its fields). The
// same lookup (ref.hpp) is also launched with the eight spans as separate
// parameters (impl=ours_spans): the struct must cost nothing over them. One
// repetition is one offload() call and a wait.
//
//   apps_xsstruct_ours [--n=LOOKUPS (17000000)] [--gridpoints=G (11303)]
//                      [--reps=R (20)] [--warmup=W (3)]
//
//===----------------------------------------------------------------------===//

#include "ref.hpp"

#include <cstdint>
#include <span>
#include <vector>

using xs::grid_point;
using xs::macro_xs;

/// XSBench's SimulationData, as a C++20 user writes it.
struct simulation_data {
  std::span<const double> union_energy;
  std::span<const int> index;
  std::span<const grid_point> nuclide;
  std::span<const int> material_nuclides;
  std::span<const int> material_list;
  std::span<const double> concentration;
  std::span<const double> material_cdf;
  int gridpoints;
  APPS_OUT std::span<macro_xs> out;
};

[[offload::kernel]] void xs_lookup_struct(const simulation_data &sd) {
  const std::size_t i = ofld::global_id();
  if (i >= sd.out.size())
    return;
  sd.out[i] = xs::lookup(
      i, sd.union_energy.data(), sd.union_energy.size(), sd.index.data(),
      sd.nuclide.data(), sd.material_nuclides.data(), sd.material_list.data(),
      sd.concentration.data(), sd.material_cdf.data(), sd.gridpoints);
}

[[offload::kernel]] void xs_lookup_spans(
    std::span<const double> union_energy, std::span<const int> index,
    std::span<const grid_point> nuclide, std::span<const int> material_nuclides,
    std::span<const int> material_list, std::span<const double> concentration,
    std::span<const double> material_cdf, int gp,
    APPS_OUT std::span<macro_xs> out) {
  const std::size_t i = ofld::global_id();
  if (i >= out.size())
    return;
  out[i] =
      xs::lookup(i, union_energy.data(), union_energy.size(), index.data(),
                 nuclide.data(), material_nuclides.data(), material_list.data(),
                 concentration.data(), material_cdf.data(), gp);
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
  std::vector<macro_xs> out(n), out_spans(n);
  apps::poison(out);
  apps::poison(out_spans);
  const simulation_data sd{
      d.union_energy,      d.index,         d.nuclide,
      d.material_nuclides, d.material_list, d.concentration,
      d.material_cdf,      int(gp),         std::span<macro_xs>(out)};
  const ofld::launch shape{
      .grid = {unsigned((n + xs::kBlock - 1) / xs::kBlock)},
      .block = {xs::kBlock}};
  bench::Samples by_struct, by_spans;
  {
    // Every field of the struct resident by its type (the [[offload::out]]
    // results allocated, not copied in), the separate output both ways; the
    // results come back at the closing brace, both outputs poisoned.
    ofld::region resident{sd, std::span<macro_xs>(out_spans)};
    auto launch_struct = [&] {
      offload(shape, xs_lookup_struct, sd);
      ofld::wait();
    };
    auto launch_spans = [&] {
      offload(shape, xs_lookup_spans, sd.union_energy, sd.index, sd.nuclide,
              sd.material_nuclides, sd.material_list, sd.concentration,
              sd.material_cdf, int(gp), out_spans);
      ofld::wait();
    };
    // Interleaved repetitions, so that neither runs on a cooler GPU.
    for (int i = 0; i < a.warmup; ++i) {
      launch_struct();
      launch_spans();
    }
    for (int i = 0; i < a.reps; ++i) {
      double t0 = bench::now_us();
      launch_struct();
      double t1 = bench::now_us();
      launch_spans();
      by_struct.add(t1 - t0);
      by_spans.add(bench::now_us() - t1);
    }
  }
  xs::check("ours", d, out);
  xs::check("ours_spans", d, out_spans);
  char extra[64];
  std::snprintf(extra, sizeof extra, "size=%zu", n);
  by_struct.report(xs::kStructMeasure, "ours", 0, extra);
  by_spans.report(xs::kStructMeasure, "ours_spans", 0, extra);
  return 0;
}
