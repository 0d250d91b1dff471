//===- apps/common/apps.hpp - what every app benchmark shares ---*- C++ -*-===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The application benchmarks (bench/apps/<app>/) each exist twice: ours.cpp
// (offload(), built with the plugin) and cuda.cu (nvcc). Both include the
// app's ref.hpp (inputs, CPU reference, checks) and this header, so that they
// start from the same inputs, are judged by the same check and print the same
// line as the rest of the suite (bench/common/bench.hpp):
//
//   measure=app_<name> impl=<ours|cuda|cuda_ev> median_us=.. ... size=..
//
// Host code only, C++17 (nvcc compiles it too), except APPS_HD functions,
// which kernels of both versions call.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_APPS_COMMON_APPS_HPP
#define OFFLOAD_BENCH_APPS_COMMON_APPS_HPP

#include "../../common/bench.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

// Functions that kernels call in both versions: CUDA needs them marked for
// the device; offload() compiles whatever a kernel calls.
#if defined(__CUDACC__)
#define APPS_HD __host__ __device__
#else
#define APPS_HD
#endif

// Output spans of the offload() kernels are marked [[offload::out]], as a
// user declares them. -DAPPS_PLAIN_OUT builds them as plain spans instead: a
// reference build that isolates what the attribute costs in the kernel
// (bench/apps/README.md); inside a region both move nothing.
#if defined(APPS_PLAIN_OUT)
#define APPS_OUT
#else
#define APPS_OUT [[offload::out]]
#endif

namespace apps {

/// The 32-bit PCG hash (Jarzynski and Olano, "Hash Functions for GPU
/// Rendering", JCGT 2020): a counter-based generator, so any element's
/// random number is known without running a sequence up to it. Inputs of
/// every app and the Monte Carlo samples come from it.
APPS_HD inline std::uint32_t pcg_hash(std::uint32_t v) {
  std::uint32_t state = v * 747796405u + 2891336453u;
  std::uint32_t word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
  return (word >> 22u) ^ word;
}

/// A float in (0, 1) from 24 bits of a hash: never 0, so log() is finite.
APPS_HD inline float unit_open(std::uint32_t h) {
  return (float(h >> 8) + 0.5f) * (1.0f / 16777216.0f);
}

/// Input i of stream `seed`, uniform in [lo, hi).
inline float uniform(std::uint32_t seed, std::size_t i, float lo, float hi) {
  std::uint32_t h = pcg_hash(std::uint32_t(i) ^ pcg_hash(seed * 0x9E3779B9u));
  return lo + (hi - lo) * unit_open(h);
}

/// Fails the program (exit 1) with `measure`, `impl` and a printf message.
template <class... A>
[[noreturn]] void failf(const char *measure, const char *impl, const char *fmt,
                        A... args) {
  char why[256];
  std::snprintf(why, sizeof why, fmt, args...);
  bench::fail(measure, impl, why);
}

/// Prints `app: <measure> <impl> ok (<what was checked>)` on stderr.
inline void checked(const char *measure, const char *impl, const char *what) {
  std::fprintf(stderr, "apps: %s %s: results ok (%s)\n", measure, impl, what);
}

/// Fills `v` with 0xff bytes (a NaN as float, -1 as int), so that what a
/// kernel leaves unwritten fails the check.
template <class T> void poison(std::vector<T> &v) {
  std::memset(static_cast<void *>(v.data()), 0xff, v.size() * sizeof(T));
}

/// Takes an app's own option `--<name>=V` out of argv, before bench::parse
/// sees the rest, and returns V (`fallback` when absent). A value that is
/// not a positive integer prints the option and exits 2.
inline std::size_t take_option(int &argc, char **argv, const char *name,
                               std::size_t fallback) {
  std::size_t value = fallback, len = std::strlen(name);
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    const char *s = argv[i];
    if (std::strncmp(s, "--", 2) || std::strncmp(s + 2, name, len) ||
        s[2 + len] != '=') {
      argv[out++] = argv[i];
      continue;
    }
    char *end = nullptr;
    unsigned long long v = std::strtoull(s + 3 + len, &end, 10);
    if (!end || *end || end == s + 3 + len || v < 1) {
      std::fprintf(stderr, "%s: --%s needs a positive integer\n", argv[0],
                   name);
      std::exit(2);
    }
    value = std::size_t(v);
  }
  argc = out;
  argv[argc] = nullptr;
  return value;
}

/// Calls fn(i) for i = 0, s, 2s, ... < n and for n - 1, with s such that
/// about `most` indices are visited: the CPU reference of a big problem
/// checks a spread-out sample (the first and last element included), that of
/// a small one (CI) every element. Returns how many were visited.
template <class F>
std::size_t for_sample(std::size_t n, std::size_t most, F &&fn) {
  std::size_t s = n <= most ? 1 : (n + most - 1) / most, count = 0;
  for (std::size_t i = 0; i < n; i += s, ++count)
    fn(i);
  if (n > 0 && (n - 1) % s != 0) {
    fn(n - 1);
    ++count;
  }
  return count;
}

} // namespace apps

#endif // OFFLOAD_BENCH_APPS_COMMON_APPS_HPP
