//===- jacobi.cpp - a 2-D Jacobi stencil with data resident on the device -===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Laplace's equation on an n x n plate whose top edge is held at 1 and the
// other edges at 0: every sweep replaces each interior point by the mean of
// its four neighbours. The two grids stay on the device for all the sweeps
// (ofld::region): only the region's start and end move data, which
// LIBOMPTARGET_INFO=32 shows. The result is checked against the same sweeps
// on the host.
//
//   jacobi [n] [sweeps]     (default 1024 and 1000; sweeps is made even)
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

// One sweep from `in` to `out` on a 2-D grid of 16 x 16 blocks; x runs along
// a row. Boundary points are copied, so `out` is a complete grid.
[[offload::kernel]] void sweep(int n, std::span<const float> in,
                               std::span<float> out) {
  std::size_t x = ofld::global_id(0), y = ofld::global_id(1);
  if (x >= std::size_t(n) || y >= std::size_t(n))
    return;
  std::size_t i = y * n + x;
  if (x == 0 || y == 0 || x == std::size_t(n) - 1 || y == std::size_t(n) - 1)
    out[i] = in[i];
  else
    out[i] = 0.25f * (in[i - 1] + in[i + 1] + in[i - n] + in[i + n]);
}

namespace {
void hostSweep(int n, const std::vector<float> &in, std::vector<float> &out) {
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      std::size_t i = std::size_t(y) * n + x;
      out[i] = (x == 0 || y == 0 || x == n - 1 || y == n - 1)
                   ? in[i]
                   : 0.25f * (in[i - 1] + in[i + 1] + in[i - n] + in[i + n]);
    }
}

std::vector<float> plate(int n) {
  std::vector<float> g(std::size_t(n) * n, 0.0f);
  for (int x = 0; x < n; ++x)
    g[x] = 1.0f; // the top row
  return g;
}
} // namespace

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1024;
  int sweeps = argc > 2 ? std::atoi(argv[2]) : 1000;
  if (n < 3 || sweeps < 2) {
    std::fprintf(stderr, "usage: jacobi [n >= 3] [sweeps >= 2]\n");
    return 2;
  }
  sweeps -= sweeps % 2; // pairs of sweeps: the result ends up in `a`
  std::vector<float> a = plate(n), b = plate(n);
  const std::uint32_t blocks = std::uint32_t((n + 15) / 16);
  const ofld::launch shape{.grid = {blocks, blocks}, .block = {16, 16}};

  auto start = std::chrono::steady_clock::now();
  {
    // a and b go to the device here and come back at the closing brace; the
    // launches in between find them there.
    ofld::region resident{std::span<float>(a), std::span<float>(b)};
    for (int s = 0; s < sweeps; s += 2) {
      offload(shape, sweep, n, a, b);
      offload(shape, sweep, n, b, a);
    }
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();

  std::vector<float> ha = plate(n), hb = plate(n);
  for (int s = 0; s < sweeps; s += 2) {
    hostSweep(n, ha, hb);
    hostSweep(n, hb, ha);
  }
  // The device may contract a * b + c into an fma; allow for rounding.
  double maxDiff = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i)
    maxDiff = std::fmax(maxDiff, std::fabs(double(a[i]) - double(ha[i])));
  bool ok = maxDiff < 1e-5;
  std::size_t belowEdge = std::size_t(n) + n / 2; // row 1, middle column
  std::printf("jacobi %dx%d, %d sweeps on %d offload device(s): %.3f ms per "
              "sweep\n",
              n, n, sweeps, ofld::device_count(), seconds * 1e3 / sweeps);
  std::printf("below the hot edge %.6f, max difference to the host %.2g: %s\n",
              a[belowEdge], maxDiff, ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
