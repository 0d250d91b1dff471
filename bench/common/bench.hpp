//===- bench/common/bench.hpp - timing, arguments and output of the suite -===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// Shared by the three implementations of every measure (offload(), CUDA,
// OpenMP), so that they parse the same options, time the same way and print
// the same machine-readable lines:
//
//   measure=<name> impl=<ours|cuda|omp|...> median_us=.. p10_us=.. p90_us=..
//       min_us=.. n=<repetitions> [key=value ...]
//
// Host code only, C++17, so that nvcc compiles it too. Timing is host wall
// clock (steady_clock) around work that has finished when the timed call
// returns: offload() is synchronous, the baselines synchronise explicitly.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_COMMON_BENCH_HPP
#define OFFLOAD_BENCH_COMMON_BENCH_HPP

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace bench {

/// Options every program takes: --reps=R --warmup=W --n=N --only=NAME
/// --pad-kib=K.
struct Args {
  int reps;
  int warmup;
  std::size_t n;
  std::string only; ///< run only the variant of this name (empty: all)
  /// Device memory (KiB) a program that supports it (seq) allocates before
  /// its timed arrays: where the driver places arrays moves the time of
  /// an L2-resident stencil by a few percent, CUDA's as much as ours.
  std::size_t pad_kib = 0;
};

[[noreturn]] inline void usage(const char *prog, const Args &d) {
  std::fprintf(stderr,
               "usage: %s [--reps=R (%d)] [--warmup=W (%d)] [--n=N (%zu)] "
               "[--only=VARIANT] [--pad-kib=K (0)]\n",
               prog, d.reps, d.warmup, d.n);
  std::exit(2);
}

inline Args parse(int argc, char **argv, Args d) {
  Args a = d;
  for (int i = 1; i < argc; ++i) {
    const char *s = argv[i];
    char *end = nullptr;
    if (!std::strncmp(s, "--reps=", 7))
      a.reps = int(std::strtol(s + 7, &end, 10));
    else if (!std::strncmp(s, "--warmup=", 9))
      a.warmup = int(std::strtol(s + 9, &end, 10));
    else if (!std::strncmp(s, "--n=", 4))
      a.n = std::size_t(std::strtoull(s + 4, &end, 10));
    else if (!std::strncmp(s, "--pad-kib=", 10))
      a.pad_kib = std::size_t(std::strtoull(s + 10, &end, 10));
    else if (!std::strncmp(s, "--only=", 7))
      a.only = s + 7, end = const_cast<char *>("");
    else
      usage(argv[0], d);
    if (!end || *end)
      usage(argv[0], d);
  }
  if (a.reps < 1 || a.warmup < 0 || a.n < 1)
    usage(argv[0], d);
  return a;
}

/// Whether variant `name` runs under --only.
inline bool wanted(const Args &a, const char *name) {
  return a.only.empty() || a.only == name;
}

inline double now_us() {
  using namespace std::chrono;
  return duration<double, std::micro>(steady_clock::now().time_since_epoch())
      .count();
}

/// Marks the start of a phase on stderr, where libomptarget writes its
/// LIBOMPTARGET_INFO lines, so that bench/transfers can attribute every copy
/// to the phase that made it.
/// Silent unless BENCH_PHASES is set (bench/transfers sets it).
inline void phase(const char *measure, const char *impl, const char *what) {
  static const bool on = std::getenv("BENCH_PHASES") != nullptr;
  if (!on)
    return;
  std::fflush(stdout);
  std::fprintf(stderr, "bench-phase: %s:%s:%s\n", measure, impl, what);
  std::fflush(stderr);
}

[[noreturn]] inline void fail(const char *measure, const char *impl,
                              const char *why) {
  std::fflush(stdout);
  std::fprintf(stderr, "bench: FAIL measure=%s impl=%s: %s\n", measure, impl,
               why);
  std::printf("measure=%s impl=%s status=FAIL\n", measure, impl);
  std::exit(1);
}

/// No device to run on: a clear message and exit status 3, not a crash.
[[noreturn]] inline void no_device(const char *prog, const char *what) {
  std::fprintf(stderr,
               "bench: %s: no GPU to run on (%s); this program must run on the "
               "GPU machine (see bench/README.md)\n",
               prog, what);
  std::exit(3);
}

/// Repetition times of one (measure, impl) pair.
struct Samples {
  std::vector<double> us;

  void add(double t) { us.push_back(t); }

  double quantile(double q) const {
    std::vector<double> s = us;
    std::sort(s.begin(), s.end());
    // Nearest rank on the sorted samples: no interpolation, so every
    // reported number is a measured one.
    std::size_t k = std::size_t(q * double(s.size() - 1) + 0.5);
    return s[std::min(k, s.size() - 1)];
  }

  /// Prints the line; `bytes` > 0 adds bytes= and gbs= (bytes / median).
  void report(const char *measure, const char *impl, double bytes = 0,
              const char *extra = "") const {
    double med = quantile(0.5);
    std::printf("measure=%s impl=%s median_us=%.3f p10_us=%.3f p90_us=%.3f "
                "min_us=%.3f n=%zu",
                measure, impl, med, quantile(0.1), quantile(0.9), quantile(0.0),
                us.size());
    if (bytes > 0)
      std::printf(" bytes=%.0f gbs=%.1f", bytes, bytes / med / 1e3);
    if (extra && *extra)
      std::printf(" %s", extra);
    std::printf("\n");
    std::fflush(stdout);
  }
};

/// Runs `fn` warmup times untimed, then reps times timed by the host clock.
template <class F> Samples time_host(const Args &a, F &&fn) {
  for (int i = 0; i < a.warmup; ++i)
    fn();
  Samples s;
  s.us.reserve(std::size_t(a.reps));
  for (int i = 0; i < a.reps; ++i) {
    double t0 = now_us();
    fn();
    s.add(now_us() - t0);
  }
  return s;
}

/// Random values in [0.5, 1.5): never zero, so unwritten outputs and wrong
/// indexing show, and sums stay well conditioned.
inline void fill_random(double *p, std::size_t n, std::uint64_t seed) {
  std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  for (std::size_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    p[i] = 0.5 + double(x >> 11) * (1.0 / 9007199254740992.0);
  }
}

inline void poison(double *p, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    p[i] = std::nan("");
}

/// Index of the first element of `got` that differs from `want(i)` by more
/// than rounding (relative 1e-15 covers fma contraction), or n.
template <class F>
std::size_t first_mismatch(const double *got, std::size_t n, F &&want) {
  for (std::size_t i = 0; i < n; ++i) {
    double w = want(i);
    if (!(std::fabs(got[i] - w) <= 1e-15 * std::fabs(w)))
      return i;
  }
  return n;
}

/// Checks every element; on a mismatch reports it and exits.
template <class F>
void check(const char *measure, const char *impl, const double *got,
           std::size_t n, F &&want) {
  std::size_t i = first_mismatch(got, n, want);
  if (i == n)
    return;
  char why[160];
  std::snprintf(why, sizeof why, "element %zu is %.17g, expected %.17g", i,
                got[i], want(i));
  fail(measure, impl, why);
}

/// The device adds in another order than a host loop would: compare with a
/// long double sum.
inline void check_dot(const char *measure, const char *impl, double got,
                      const double *a, const double *b, std::size_t n) {
  long double ref = 0;
  for (std::size_t i = 0; i < n; ++i)
    ref += (long double)a[i] * b[i];
  double rel = double(std::fabs((long double)got - ref) / std::fabs(ref));
  if (!(rel < 1e-12)) {
    char why[160];
    std::snprintf(why, sizeof why, "dot is %.17g, expected %.17Lg (rel %.3g)",
                  got, ref, rel);
    fail(measure, impl, why);
  }
}

/// The dot product's launch geometry, the same in all implementations: a
/// grid-stride pass with one partial sum per thread, then one block folds
/// the partials to kDotFold sums, which the host adds.
constexpr unsigned kDotBlocks = 1024, kDotThreads = 256, kDotFold = 256;
constexpr std::size_t kDotPartials = std::size_t(kDotBlocks) * kDotThreads;

inline double host_sum(const double *p, std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i)
    s += p[i];
  return s;
}

} // namespace bench

#endif // OFFLOAD_BENCH_COMMON_BENCH_HPP
