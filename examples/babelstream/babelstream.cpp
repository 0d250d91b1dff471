//===- babelstream.cpp - the five BabelStream kernels ---------------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// copy, mul, add, triad and dot over three arrays of doubles, as BabelStream
// (github.com/UoB-HPC/BabelStream) defines them, with the bandwidth each
// reaches. The arrays stay on the device for the whole run (ofld::region),
// so the timings are the kernels' and not the transfers'.
//
//   babelstream [elements] [iterations]     (default 2^25 and 100)
//
// dot is a two-step reduction without atomics or shared memory: each thread
// sums a strided part of the arrays into its own partial, and the host adds
// the partials up; its time includes their trip to the host and the sum.
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <span>
#include <vector>

namespace {
constexpr double StartA = 0.1, StartB = 0.2, StartC = 0.0, Scalar = 0.4;
// The dot launch: enough threads to fill a GPU, few enough partials to add
// up on the host in no time.
constexpr unsigned DotBlocks = 256, DotThreads = 256;
} // namespace

[[offload::kernel]] void copy(std::span<const double> a, std::span<double> c) {
  std::size_t i = ofld::global_id();
  if (i < c.size())
    c[i] = a[i];
}

[[offload::kernel]] void mul(double scalar, std::span<double> b,
                             std::span<const double> c) {
  std::size_t i = ofld::global_id();
  if (i < b.size())
    b[i] = scalar * c[i];
}

[[offload::kernel]] void add(std::span<const double> a,
                             std::span<const double> b, std::span<double> c) {
  std::size_t i = ofld::global_id();
  if (i < c.size())
    c[i] = a[i] + b[i];
}

[[offload::kernel]] void triad(double scalar, std::span<double> a,
                               std::span<const double> b,
                               std::span<const double> c) {
  std::size_t i = ofld::global_id();
  if (i < a.size())
    a[i] = b[i] + scalar * c[i];
}

// Thread t adds a[i] * b[i] for i = t, t + T, t + 2T, ... (T threads in all):
// neighbouring threads read neighbouring elements, as a GPU wants it.
[[offload::kernel]] void dot(std::span<const double> a,
                             std::span<const double> b,
                             [[offload::out]] std::span<double> partial) {
  std::size_t t = ofld::global_id();
  std::size_t threads = std::size_t(ofld::grid_dim()) * ofld::block_dim();
  double sum = 0.0;
  for (std::size_t i = t; i < a.size(); i += threads)
    sum += a[i] * b[i];
  partial[t] = sum;
}

int main(int argc, char **argv) {
  std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1 << 25;
  int iterations = argc > 2 ? std::atoi(argv[2]) : 100;
  if (n == 0 || iterations < 2) {
    std::fprintf(stderr,
                 "usage: babelstream [elements > 0] [iterations > 1]\n");
    return 2;
  }
  std::vector<double> a(n, StartA), b(n, StartB), c(n, StartC);
  std::vector<double> partial(DotBlocks * DotThreads);
  const ofld::launch dotShape{.grid = {DotBlocks}, .block = {DotThreads}};

  enum { Copy, Mul, Add, Triad, Dot, Kernels };
  std::vector<double> seconds[Kernels];
  double sum = 0.0;
  auto timed = [&](int k, auto &&launch) {
    auto start = std::chrono::steady_clock::now();
    launch();
    ofld::wait(); // launches on resident data return once queued
    seconds[k].push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count());
  };
  {
    // a, b and c move to the device here and back at the closing brace.
    ofld::region resident{std::span<double>(a), std::span<double>(b),
                          std::span<double>(c)};
    for (int it = 0; it < iterations; ++it) {
      timed(Copy, [&] { offload(copy, a, c); });
      timed(Mul, [&] { offload(mul, Scalar, b, c); });
      timed(Add, [&] { offload(add, a, b, c); });
      timed(Triad, [&] { offload(triad, Scalar, a, b, c); });
      timed(Dot, [&] {
        offload(dotShape, dot, a, b, partial);
        sum = std::accumulate(partial.begin(), partial.end(), 0.0);
      });
    }
  }

  // The expected values follow the same recurrences on scalars.
  double ga = StartA, gb = StartB, gc = StartC;
  for (int it = 0; it < iterations; ++it) {
    gc = ga;
    gb = Scalar * gc;
    gc = ga + gb;
    ga = gb + Scalar * gc;
  }
  double gsum = ga * gb * double(n);
  auto relErr = [&](const std::vector<double> &v, double gold) {
    double err = 0.0;
    for (double x : v)
      err += std::fabs(x - gold);
    return err / double(v.size()) / std::fabs(gold);
  };
  const double Eps = 1e-8;
  bool ok = relErr(a, ga) < Eps && relErr(b, gb) < Eps && relErr(c, gc) < Eps &&
            std::fabs(sum - gsum) / std::fabs(gsum) < 1e-8;

  std::printf("BabelStream (offload): %zu elements (%.1f MB per array), "
              "%d iterations, %d offload device(s)\n",
              n, double(n * sizeof(double)) * 1e-6, iterations,
              ofld::device_count());
  std::printf("%-9s %12s %11s %11s %11s\n", "Function", "MBytes/sec",
              "Min (sec)", "Max", "Average");
  const char *names[Kernels] = {"Copy", "Mul", "Add", "Triad", "Dot"};
  const int arrays[Kernels] = {2, 2, 3, 3, 2}; // arrays each kernel touches
  for (int k = 0; k < Kernels; ++k) {
    // The first iteration warms up (device images load, pages fault in).
    auto first = seconds[k].begin() + 1, last = seconds[k].end();
    double min = *std::min_element(first, last);
    double max = *std::max_element(first, last);
    double avg = std::accumulate(first, last, 0.0) / double(last - first);
    double bytes = double(arrays[k]) * double(n) * sizeof(double);
    std::printf("%-9s %12.1f %11.5f %11.5f %11.5f\n", names[k],
                bytes * 1e-6 / min, min, max, avg);
  }
  std::printf("validation: a=%.6g b=%.6g c=%.6g dot=%.6g (expected %.6g): %s\n",
              a[0], b[0], c[0], sum, gsum, ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
