//===- bench/xfer/ours.cpp - STREAM triad with transfers, offload() -------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// xfer_triad: a = b + s*c on N doubles in std::vectors (pageable memory),
// one offload() per repetition: b and c are copied in (std::span<const>),
// a only back ([[offload::out]]), as the parameter types say.
// xfer_triad_tofrom: the same with every array a std::span<double>, so all
// three travel both ways.
//
//===----------------------------------------------------------------------===//

#include "../common/bench.hpp"

#include <span>
#include <vector>

[[offload::kernel]] void xfer_triad([[offload::out]] std::span<double> a,
                                    std::span<const double> b,
                                    std::span<const double> c, double s) {
  std::size_t i = ofld::global_id();
  if (i < a.size())
    a[i] = b[i] + s * c[i];
}

[[offload::kernel]] void xfer_triad_tofrom(std::span<double> a,
                                           std::span<double> b,
                                           std::span<double> c, double s) {
  std::size_t i = ofld::global_id();
  if (i < a.size())
    a[i] = b[i] + s * c[i];
}

namespace {

/// Poison a, run once and check; time; check the last run's a.
template <class Launch>
void run(const bench::Args &args, const char *measure, double bytes,
         std::vector<double> &a, const std::vector<double> &b,
         const std::vector<double> &c, double s, Launch &&launch) {
  if (!bench::wanted(args, measure))
    return;
  auto want = [&](std::size_t i) { return b[i] + s * c[i]; };
  bench::phase(measure, "ours", "check");
  bench::poison(a.data(), a.size());
  launch();
  bench::check(measure, "ours", a.data(), a.size(), want);
  bench::poison(a.data(), a.size());
  bench::phase(measure, "ours", "timed");
  bench::Samples t = bench::time_host(args, launch);
  bench::phase(measure, "ours", "after");
  bench::check(measure, "ours", a.data(), a.size(), want);
  t.report(measure, "ours", bytes);
}

} // namespace

int main(int argc, char **argv) {
  bench::Args args =
      bench::parse(argc, argv, {15, 2, std::size_t(1) << 25, ""});
  if (ofld::device_count() < 1)
    bench::no_device(argv[0], "ofld::device_count() is 0");
  const std::size_t n = args.n;
  const double s = 3.0, w = 8.0 * double(n);
  std::vector<double> a(n), b(n), c(n);
  bench::fill_random(b.data(), n, 2);
  bench::fill_random(c.data(), n, 3);
  run(args, "xfer_triad", 3 * w, a, b, c, s,
      [&] { offload(xfer_triad, a, b, c, s); });
  run(args, "xfer_triad_tofrom", 6 * w, a, b, c, s,
      [&] { offload(xfer_triad_tofrom, a, b, c, s); });
  return 0;
}
