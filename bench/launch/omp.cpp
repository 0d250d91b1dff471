//===- bench/launch/omp.cpp - launch latency of OpenMP ompx_bare ----------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The baseline of launch/ours.cpp. launch_empty: an empty
// `target teams ompx_bare num_teams(1) thread_limit(1)`. launch_1kb: the same
// with map(tofrom: v[0:128]) and one block of 256 threads.
//
//===----------------------------------------------------------------------===//

#include "../common/bench.hpp"
#include "../common/omp_bare.hpp"

#include <vector>

namespace {

void launch_empty() {
#pragma omp target teams ompx_bare num_teams(BARE_TEAMS(1))                    \
    thread_limit(BARE_THREADS(1))
  BARE_FOR(i, 1, 1) {}
}

void launch_bump(double *v, std::size_t n) {
  const std::size_t nb = (n + 255) / 256;
#pragma omp target teams ompx_bare num_teams(BARE_TEAMS(nb))                   \
    thread_limit(BARE_THREADS(256)) map(tofrom : v[0 : n])
  BARE_FOR(i, nb, 256) {
    if (i < n)
      v[i] += 1.0;
  }
}

} // namespace

int main(int argc, char **argv) {
  bench::Args a = bench::parse(argc, argv, {1000, 50, 128, ""});
  if (omp_get_num_devices() < 1)
    bench::no_device(argv[0], "omp_get_num_devices() is 0");

  if (bench::wanted(a, "launch_empty")) {
    bench::phase("launch_empty", "omp", "timed");
    bench::time_host(a, [] { launch_empty(); }).report("launch_empty", "omp");
  }

  if (bench::wanted(a, "launch_1kb")) {
    std::vector<double> v(a.n);
    for (std::size_t i = 0; i < v.size(); ++i)
      v[i] = double(i * 7 % 1000 + 1);
    bench::phase("launch_1kb", "omp", "timed");
    bench::Samples s =
        bench::time_host(a, [&] { launch_bump(v.data(), v.size()); });
    bench::phase("launch_1kb", "omp", "after");
    const double calls = a.warmup + a.reps;
    bench::check("launch_1kb", "omp", v.data(), v.size(), [&](std::size_t i) {
      return double(i * 7 % 1000 + 1) + calls;
    });
    char extra[48];
    std::snprintf(extra, sizeof extra, "arg_bytes=%zu",
                  v.size() * sizeof(double));
    s.report("launch_1kb", "omp", 0, extra);
  }
  return 0;
}
