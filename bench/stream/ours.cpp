//===- bench/stream/ours.cpp - STREAM with offload(), data resident -------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// copy c=a, mul b=s*c, add c=a+b, triad a=b+s*c, dot sum(a*b) on N doubles
// that stay on the device. Each kernel runs one thread per element in blocks
// of 256 (offload()'s default shape, the same grid the baselines launch);
// dot is a grid-stride pass of kDotBlocks x kDotThreads partial sums, a fold
// of those by one block to kDotFold sums, and a host sum of the fold (the
// same algorithm in stream/cuda.cu and stream/omp.cpp). Every call is timed
// from the host: the launch and ofld::wait() (on resident data, offload()
// returns once the kernel is queued).
//
// Built with the plugin; see bench/CMakeLists.txt.
//
//===----------------------------------------------------------------------===//

#include "../common/bench.hpp"
#include "../common/resident.hpp"

#include <span>
#include <vector>

using bench::kDotBlocks;
using bench::kDotFold;
using bench::kDotThreads;

[[offload::kernel]] void stream_copy([[offload::out]] std::span<double> c,
                                     std::span<const double> a) {
  std::size_t i = ofld::global_id();
  if (i < c.size())
    c[i] = a[i];
}

[[offload::kernel]] void stream_mul([[offload::out]] std::span<double> b,
                                    std::span<const double> c, double s) {
  std::size_t i = ofld::global_id();
  if (i < b.size())
    b[i] = s * c[i];
}

[[offload::kernel]] void stream_add([[offload::out]] std::span<double> c,
                                    std::span<const double> a,
                                    std::span<const double> b) {
  std::size_t i = ofld::global_id();
  if (i < c.size())
    c[i] = a[i] + b[i];
}

[[offload::kernel]] void stream_triad([[offload::out]] std::span<double> a,
                                      std::span<const double> b,
                                      std::span<const double> c, double s) {
  std::size_t i = ofld::global_id();
  if (i < a.size())
    a[i] = b[i] + s * c[i];
}

[[offload::kernel]] void dot_partial(std::span<const double> a,
                                     std::span<const double> b,
                                     [[offload::out]] std::span<double> part) {
  std::size_t t = ofld::global_id();
  std::size_t stride = std::size_t(ofld::grid_dim()) * ofld::block_dim();
  double s = 0;
  for (std::size_t i = t; i < a.size(); i += stride)
    s += a[i] * b[i];
  if (t < part.size())
    part[t] = s;
}

[[offload::kernel]] void dot_fold(std::span<const double> part,
                                  [[offload::out]] std::span<double> fold) {
  std::size_t t = ofld::global_id();
  std::size_t stride = std::size_t(ofld::grid_dim()) * ofld::block_dim();
  double s = 0;
  for (std::size_t i = t; i < part.size(); i += stride)
    s += part[i];
  if (t < fold.size())
    fold[t] = s;
}

namespace {

const char *const Impl = "ours";

/// Poison the output, run once and check every element; time; check again.
template <class Launch, class Want>
void run(const bench::Args &a, const char *measure, double bytes,
         std::vector<double> &out, bench::resident &dev, Launch &&launch,
         Want &&want) {
  if (!bench::wanted(a, measure))
    return;
  bench::phase(measure, Impl, "check");
  bench::poison(out.data(), out.size());
  dev.push();
  launch();
  dev.pull();
  bench::check(measure, Impl, out.data(), out.size(), want);
  bench::phase(measure, Impl, "timed");
  bench::Samples s = bench::time_host(a, launch);
  bench::phase(measure, Impl, "after");
  dev.pull();
  bench::check(measure, Impl, out.data(), out.size(), want);
  s.report(measure, Impl, bytes, bench::kResident);
}

} // namespace

int main(int argc, char **argv) {
  bench::Args a = bench::parse(argc, argv, {100, 5, std::size_t(1) << 25, ""});
  if (ofld::device_count() < 1)
    bench::no_device(argv[0], "ofld::device_count() is 0");
  const std::size_t n = a.n;
  const double s = 3.0;
  const double w = 8.0 * double(n); // bytes of one array
  std::vector<double> A(n), B(n), C(n), P(bench::kDotPartials), F(kDotFold);
  bench::fill_random(A.data(), n, 1);
  bench::fill_random(B.data(), n, 2);
  bench::fill_random(C.data(), n, 3);
  bench::resident dA(A.data(), n), dB(B.data(), n), dC(C.data(), n),
      dP(P.data(), P.size());

  run(
      a, "stream_copy", 2 * w, C, dC,
      [&] {
        offload(stream_copy, C, A);
        ofld::wait();
      },
      [&](std::size_t i) { return A[i]; });
  run(
      a, "stream_mul", 2 * w, B, dB,
      [&] {
        offload(stream_mul, B, C, s);
        ofld::wait();
      },
      [&](std::size_t i) { return s * C[i]; });
  run(
      a, "stream_add", 3 * w, C, dC,
      [&] {
        offload(stream_add, C, A, B);
        ofld::wait();
      },
      [&](std::size_t i) { return A[i] + B[i]; });
  run(
      a, "stream_triad", 3 * w, A, dA,
      [&] {
        offload(stream_triad, A, B, C, s);
        ofld::wait();
      },
      [&](std::size_t i) { return B[i] + s * C[i]; });

  if (bench::wanted(a, "stream_dot")) {
    const ofld::launch Part{.grid = {kDotBlocks}, .block = {kDotThreads}};
    const ofld::launch Fold{.grid = {1}, .block = {kDotFold}};
    double result = 0;
    auto dot = [&] {
      offload(Part, dot_partial, A, B, P);
      offload(Fold, dot_fold, P, F); // F is not resident: copied back
      result = bench::host_sum(F.data(), F.size());
    };
    bench::phase("stream_dot", Impl, "check");
    bench::poison(F.data(), F.size());
    dot();
    bench::check_dot("stream_dot", Impl, result, A.data(), B.data(), n);
    bench::phase("stream_dot", Impl, "timed");
    bench::Samples t = bench::time_host(a, dot);
    bench::phase("stream_dot", Impl, "after");
    bench::check_dot("stream_dot", Impl, result, A.data(), B.data(), n);
    t.report("stream_dot", Impl, 2 * w, bench::kResident);
  }
  return 0;
}
