//===- bench/xfer/omp.cpp - STREAM triad with transfers, OpenMP -----------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The baseline of xfer/ours.cpp: one `target teams ompx_bare` construct per
// repetition with map(to: b, c) map(from: a) (xfer_triad), or every array
// map(tofrom:) (xfer_triad_tofrom).
//
//===----------------------------------------------------------------------===//

#include "../common/bench.hpp"
#include "../common/omp_bare.hpp"

#include <vector>

namespace {

void xfer_triad(double *a, const double *b, const double *c, double s,
                std::size_t n) {
  const std::size_t nb = (n + 255) / 256;
#pragma omp target teams ompx_bare num_teams(BARE_TEAMS(nb))                   \
    thread_limit(BARE_THREADS(256)) map(from : a[0 : n])                       \
    map(to : b[0 : n], c[0 : n])
  BARE_FOR(i, nb, 256) {
    if (i < n)
      a[i] = b[i] + s * c[i];
  }
}

void xfer_triad_tofrom(double *a, double *b, double *c, double s,
                       std::size_t n) {
  const std::size_t nb = (n + 255) / 256;
#pragma omp target teams ompx_bare num_teams(BARE_TEAMS(nb))                   \
    thread_limit(BARE_THREADS(256)) map(tofrom : a[0 : n], b[0 : n], c[0 : n])
  BARE_FOR(i, nb, 256) {
    if (i < n)
      a[i] = b[i] + s * c[i];
  }
}

template <class Launch>
void run(const bench::Args &args, const char *measure, double bytes,
         std::vector<double> &a, const std::vector<double> &b,
         const std::vector<double> &c, double s, Launch &&launch) {
  if (!bench::wanted(args, measure))
    return;
  auto want = [&](std::size_t i) { return b[i] + s * c[i]; };
  bench::phase(measure, "omp", "check");
  bench::poison(a.data(), a.size());
  launch();
  bench::check(measure, "omp", a.data(), a.size(), want);
  bench::poison(a.data(), a.size());
  bench::phase(measure, "omp", "timed");
  bench::Samples t = bench::time_host(args, launch);
  bench::phase(measure, "omp", "after");
  bench::check(measure, "omp", a.data(), a.size(), want);
  t.report(measure, "omp", bytes);
}

} // namespace

int main(int argc, char **argv) {
  bench::Args args =
      bench::parse(argc, argv, {15, 2, std::size_t(1) << 25, ""});
  if (omp_get_num_devices() < 1)
    bench::no_device(argv[0], "omp_get_num_devices() is 0");
  const std::size_t n = args.n;
  const double s = 3.0, w = 8.0 * double(n);
  std::vector<double> a(n), b(n), c(n);
  bench::fill_random(b.data(), n, 2);
  bench::fill_random(c.data(), n, 3);
  run(args, "xfer_triad", 3 * w, a, b, c, s,
      [&] { xfer_triad(a.data(), b.data(), c.data(), s, n); });
  run(args, "xfer_triad_tofrom", 6 * w, a, b, c, s,
      [&] { xfer_triad_tofrom(a.data(), b.data(), c.data(), s, n); });
  return 0;
}
