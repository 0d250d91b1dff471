//===- bench/stream/omp.cpp - STREAM in OpenMP ompx_bare, data resident ---===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The OpenMP baseline of stream/ours.cpp: the arrays are mapped once with
// `target enter data`; every kernel is a `target teams ompx_bare` construct
// with the same grid (one thread per element, blocks of 256) and the same dot
// algorithm, its map clauses finding the arrays present. Timed from the host
// (a target construct without nowait returns when the kernel is done).
//
// clang++-22 -fopenmp --offload-arch=sm_90 -nogpulib (bench/CMakeLists.txt).
//
//===----------------------------------------------------------------------===//

#include "../common/bench.hpp"
#include "../common/omp_bare.hpp"

#include <vector>

using bench::kDotBlocks;
using bench::kDotFold;
using bench::kDotThreads;

namespace {

const char *const Impl = "omp";

void stream_copy(double *c, const double *a, std::size_t n) {
  const std::size_t nb = (n + 255) / 256;
#pragma omp target teams ompx_bare num_teams(BARE_TEAMS(nb))                   \
    thread_limit(BARE_THREADS(256)) map(from : c[0 : n]) map(to : a[0 : n])
  BARE_FOR(i, nb, 256) {
    if (i < n)
      c[i] = a[i];
  }
}

void stream_mul(double *b, const double *c, double s, std::size_t n) {
  const std::size_t nb = (n + 255) / 256;
#pragma omp target teams ompx_bare num_teams(BARE_TEAMS(nb))                   \
    thread_limit(BARE_THREADS(256)) map(from : b[0 : n]) map(to : c[0 : n])
  BARE_FOR(i, nb, 256) {
    if (i < n)
      b[i] = s * c[i];
  }
}

void stream_add(double *c, const double *a, const double *b, std::size_t n) {
  const std::size_t nb = (n + 255) / 256;
#pragma omp target teams ompx_bare num_teams(BARE_TEAMS(nb))                   \
    thread_limit(BARE_THREADS(256)) map(from : c[0 : n])                       \
    map(to : a[0 : n], b[0 : n])
  BARE_FOR(i, nb, 256) {
    if (i < n)
      c[i] = a[i] + b[i];
  }
}

void stream_triad(double *a, const double *b, const double *c, double s,
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

void dot_partial(const double *a, const double *b, std::size_t n, double *part,
                 std::size_t np) {
#pragma omp target teams ompx_bare num_teams(BARE_TEAMS(kDotBlocks))           \
    thread_limit(BARE_THREADS(kDotThreads)) map(to : a[0 : n], b[0 : n])       \
    map(from : part[0 : np])
  BARE_FOR(t, kDotBlocks, kDotThreads) {
    const std::size_t stride = BARE_GRID_THREADS(kDotBlocks, kDotThreads);
    double s = 0;
    for (std::size_t i = t; i < n; i += stride)
      s += a[i] * b[i];
    if (t < np)
      part[t] = s;
  }
}

void dot_fold(const double *part, std::size_t np, double *fold,
              std::size_t nf) {
#pragma omp target teams ompx_bare num_teams(BARE_TEAMS(1))                    \
    thread_limit(BARE_THREADS(kDotFold)) map(to : part[0 : np])                \
    map(from : fold[0 : nf])
  BARE_FOR(t, 1, kDotFold) {
    const std::size_t stride = BARE_GRID_THREADS(1, kDotFold);
    double s = 0;
    for (std::size_t i = t; i < np; i += stride)
      s += part[i];
    if (t < nf)
      fold[t] = s;
  }
}

void pull(double *p, std::size_t n) {
#pragma omp target update from(p[0 : n])
}
void push(double *p, std::size_t n) {
#pragma omp target update to(p[0 : n])
}

/// Poison the output, run once and check every element; time; check again.
template <class Launch, class Want>
void run(const bench::Args &a, const char *measure, double bytes,
         std::vector<double> &out, Launch &&launch, Want &&want) {
  if (!bench::wanted(a, measure))
    return;
  bench::phase(measure, Impl, "check");
  bench::poison(out.data(), out.size());
  push(out.data(), out.size());
  launch();
  pull(out.data(), out.size());
  bench::check(measure, Impl, out.data(), out.size(), want);
  bench::phase(measure, Impl, "timed");
  bench::Samples s = bench::time_host(a, launch);
  bench::phase(measure, Impl, "after");
  pull(out.data(), out.size());
  bench::check(measure, Impl, out.data(), out.size(), want);
  s.report(measure, Impl, bytes);
}

} // namespace

int main(int argc, char **argv) {
  bench::Args a = bench::parse(argc, argv, {100, 5, std::size_t(1) << 25, ""});
  if (omp_get_num_devices() < 1)
    bench::no_device(argv[0], "omp_get_num_devices() is 0");
  const std::size_t n = a.n;
  const double s = 3.0;
  const double w = 8.0 * double(n);
  const std::size_t np = bench::kDotPartials, nf = kDotFold;
  std::vector<double> A(n), B(n), C(n), P(np), F(nf);
  bench::fill_random(A.data(), n, 1);
  bench::fill_random(B.data(), n, 2);
  bench::fill_random(C.data(), n, 3);
  double *pa = A.data(), *pb = B.data(), *pc = C.data(), *pp = P.data(),
         *pf = F.data();
#pragma omp target enter data map(to : pa[0 : n], pb[0 : n], pc[0 : n],        \
                                      pp[0 : np])

  run(
      a, "stream_copy", 2 * w, C, [&] { stream_copy(pc, pa, n); },
      [&](std::size_t i) { return A[i]; });
  run(
      a, "stream_mul", 2 * w, B, [&] { stream_mul(pb, pc, s, n); },
      [&](std::size_t i) { return s * C[i]; });
  run(
      a, "stream_add", 3 * w, C, [&] { stream_add(pc, pa, pb, n); },
      [&](std::size_t i) { return A[i] + B[i]; });
  run(
      a, "stream_triad", 3 * w, A, [&] { stream_triad(pa, pb, pc, s, n); },
      [&](std::size_t i) { return B[i] + s * C[i]; });

  if (bench::wanted(a, "stream_dot")) {
    double result = 0;
    // The fold is not resident: mapped from the device at every call, as
    // offload() does with its [[offload::out]] span.
    auto dot = [&] {
      dot_partial(pa, pb, n, pp, np);
      dot_fold(pp, np, pf, nf);
      result = bench::host_sum(pf, nf);
    };
    bench::phase("stream_dot", Impl, "check");
    bench::poison(pf, nf);
    dot();
    bench::check_dot("stream_dot", Impl, result, pa, pb, n);
    bench::phase("stream_dot", Impl, "timed");
    bench::Samples t = bench::time_host(a, dot);
    bench::phase("stream_dot", Impl, "after");
    bench::check_dot("stream_dot", Impl, result, pa, pb, n);
    t.report("stream_dot", Impl, 2 * w);
  }
#pragma omp target exit data map(release : pa[0 : n], pb[0 : n], pc[0 : n],    \
                                     pp[0 : np])
  return 0;
}
