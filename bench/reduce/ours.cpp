//===- bench/reduce/ours.cpp - reductions through parameter types ---------===//
//
// Part of the offload project's benchmark suite (issue 16, item 4).
//
//===----------------------------------------------------------------------===//
//
// dot, min and max of N doubles (default 2^25) that stay on the device (an
// ofld::region), through `ofld::sum<double>&`, `ofld::min<double>&` and
// `ofld::max<double>&` parameters, and STREAM's triad for the bandwidth the
// device reaches. Each reduction kernel is a grid-stride loop, launched for
// several grids of 256 and 1024 threads (the shapes bench/reduce/cuda.cu
// times), plus the one-thread-per-element default shape. A timed call is
// the whole offload(): the launch, the combination on the device and the
// value back on the host, as the CUDA baselines time kernel + copy of the
// result. Every result is checked against the host first.
//
// reduce_dot_queued keeps the variable on the device as well (a region
// holds it), so launches queue back to back: the kernel's own throughput,
// 20 launches per ofld::wait().
//
// Output: one `measure=... impl=ours ...` line per (measure, shape), with
// bytes= and gbs=; bench/reduce/run.sh prints the table.
//
//===----------------------------------------------------------------------===//

#include "../common/bench.hpp"

#include <cmath>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

[[offload::kernel]] void dot(std::span<const double> a,
                             std::span<const double> b, ofld::sum<double> &s) {
  std::size_t stride = std::size_t(ofld::grid_dim()) * ofld::block_dim();
  for (std::size_t i = ofld::global_id(); i < a.size(); i += stride)
    s += a[i] * b[i];
}

[[offload::kernel]] void lowest(std::span<const double> a,
                                ofld::min<double> &m) {
  std::size_t stride = std::size_t(ofld::grid_dim()) * ofld::block_dim();
  for (std::size_t i = ofld::global_id(); i < a.size(); i += stride)
    m.combine(a[i]);
}

[[offload::kernel]] void highest(std::span<const double> a,
                                 ofld::max<double> &m) {
  std::size_t stride = std::size_t(ofld::grid_dim()) * ofld::block_dim();
  for (std::size_t i = ofld::global_id(); i < a.size(); i += stride)
    m.combine(a[i]);
}

[[offload::kernel]] void triad([[offload::out]] std::span<double> a,
                               std::span<const double> b,
                               std::span<const double> c, double s) {
  std::size_t i = ofld::global_id();
  if (i < a.size())
    a[i] = b[i] + s * c[i];
}

namespace {

const char *const Impl = "ours";

struct Shape {
  unsigned blocks, threads; ///< 0 blocks: the default shape
};
const Shape Shapes[] = {{264, 256},  {528, 256},  {1056, 256}, {2112, 256},
                        {132, 1024}, {264, 1024}, {528, 1024}, {0, 256}};

std::string label(const Shape &S) {
  return S.blocks ? "grid=" + std::to_string(S.blocks) +
                        " block=" + std::to_string(S.threads)
                  : std::string("grid=default block=256");
}

ofld::launch shapeOf(const Shape &S) {
  if (!S.blocks)
    return ofld::launch{};
  return ofld::launch{.grid = {S.blocks}, .block = {S.threads}};
}

} // namespace

int main(int argc, char **argv) {
  bench::Args a = bench::parse(argc, argv, {200, 20, std::size_t(1) << 25, ""});
  if (ofld::device_count() < 1)
    bench::no_device(argv[0], "ofld::device_count() is 0");
  const std::size_t n = a.n;
  std::vector<double> A(n), B(n), C(n);
  bench::fill_random(A.data(), n, 1);
  bench::fill_random(B.data(), n, 2);
  bench::fill_random(C.data(), n, 3);
  double want_dot = 0, want_min = A[0], want_max = A[0], magnitude = 0;
  for (std::size_t i = 0; i < n; ++i) {
    want_dot += A[i] * B[i];
    magnitude += std::fabs(A[i] * B[i]);
    want_min = std::min(want_min, A[i]);
    want_max = std::max(want_max, A[i]);
  }
  ofld::region resident{std::span<const double>(A), std::span<const double>(B),
                        std::span<double>(C)};

  for (const Shape &S : Shapes) {
    ofld::launch L = shapeOf(S);
    std::string extra = label(S) + " resident=region";
    if (bench::wanted(a, "reduce_dot")) {
      double s = 0;
      offload(L, dot, A, B, s);
      // Any order of n additions is within n * 2^-53 * sum |a b|.
      if (!(std::fabs(s - want_dot) <= double(n) * 0x1p-53 * magnitude))
        bench::fail("reduce_dot", Impl, "wrong dot");
      double first = s;
      bench::Samples T = bench::time_host(a, [&] {
        s = 0;
        offload(L, dot, A, B, s);
      });
      if (s != first)
        bench::fail("reduce_dot", Impl, "dot differs between runs");
      T.report("reduce_dot", Impl, 16.0 * double(n), extra.c_str());
    }
    if (bench::wanted(a, "reduce_min")) {
      double m = 1e300;
      bench::Samples T = bench::time_host(a, [&] {
        m = 1e300;
        offload(L, lowest, A, m);
      });
      if (m != want_min)
        bench::fail("reduce_min", Impl, "wrong min");
      T.report("reduce_min", Impl, 8.0 * double(n), extra.c_str());
    }
    if (bench::wanted(a, "reduce_max")) {
      double m = -1e300;
      bench::Samples T = bench::time_host(a, [&] {
        m = -1e300;
        offload(L, highest, A, m);
      });
      if (m != want_max)
        bench::fail("reduce_max", Impl, "wrong max");
      T.report("reduce_max", Impl, 8.0 * double(n), extra.c_str());
    }
  }
  // Kernel throughput: the variable stays on the device too (a region), so
  // the launches queue back to back; per launch of 20, ofld::wait() once.
  if (bench::wanted(a, "reduce_dot_queued")) {
    for (const Shape &S : Shapes) {
      ofld::launch L = shapeOf(S);
      double total = 0;
      {
        ofld::region held{total};
        bench::Samples T = bench::time_host(a, [&] {
          for (int I = 0; I < 20; ++I)
            offload(L, dot, A, B, total);
          ofld::wait();
        });
        for (double &us : T.us)
          us /= 20;
        std::string extra = label(S) + " resident=region launches=20";
        T.report("reduce_dot_queued", Impl, 16.0 * double(n), extra.c_str());
      }
      // 1 + (warmup + reps) * 20 launches, each adding the same dot.
      double runs = double(a.warmup + a.reps) * 20;
      if (!(std::fabs(total - runs * want_dot) <=
            runs * double(n) * 0x1p-52 * magnitude))
        bench::fail("reduce_dot_queued", Impl, "wrong accumulated dot");
    }
  }
  if (bench::wanted(a, "triad")) {
    // On resident data offload() returns once the kernel is queued.
    bench::Samples T = bench::time_host(a, [&] {
      offload(triad, C, A, B, 3.0);
      ofld::wait();
    });
    T.report("triad", Impl, 24.0 * double(n),
             "grid=default block=256 resident=region");
  }
  return 0;
}
