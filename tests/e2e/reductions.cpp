//===- reductions.cpp - end-to-end: reductions declared by parameter types ===//
//
// Part of the offload project's tests (issue 16, items 1-5). Kernels with
// `ofld::sum<T>&`, `ofld::min<T>&` and `ofld::max<T>&` parameters on random
// data, checked against the host:
//   - integers (int, long long, unsigned wrapping, 8-bit) exactly;
//   - float and double within the bound of docs/Reductions.md, and bit for
//     bit equal to an independent replay of the documented order (32-lane
//     warps, one partial per block, the last block's fold): that order is
//     what NVIDIA GPUs and every CPU path compute;
//   - the same launch 10 times: identical bits every time;
//   - several reductions in one kernel, 1-D, 2-D and 3-D grids and blocks
//     (blocks that are not a multiple of 32 threads), threads that contribute
//     many times or never, the old value folded in, NaNs ignored by min/max;
//   - inside an ofld::region, a launch group, on a queue with .nowait (ready
//     after the queue's wait).
// Every mismatch prints a line starting with FAIL.
//
//===----------------------------------------------------------------------===//

#include "expect.h"

#include <offload/offload.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <span>
#include <vector>

[[offload::kernel]] void dot(std::span<const double> x,
                             std::span<const double> y, ofld::sum<double> &s) {
  if (auto i = ofld::global_id(); i < x.size())
    s += x[i] * y[i];
}

/// Grid-stride: every thread contributes many times (or never, past n).
[[offload::kernel]] void stats(std::span<const int> v, ofld::sum<long long> &s,
                               ofld::min<int> &lo, ofld::max<int> &hi,
                               ofld::sum<unsigned> &wrap) {
  std::size_t stride = std::size_t(ofld::grid_dim()) * ofld::block_dim();
  for (std::size_t i = ofld::global_id(); i < v.size(); i += stride) {
    s += v[i];
    lo.combine(v[i]);
    hi.combine(v[i]);
    wrap += unsigned(v[i]) * 2654435761u;
  }
}

/// A 3-D grid of 3-D blocks (6x5x2 threads: 60, not a multiple of 32) over
/// a volume; only the even cells contribute.
[[offload::kernel]] void volume(std::span<const float> v, unsigned nx,
                                unsigned ny, unsigned nz, ofld::sum<float> &s,
                                ofld::max<float> &hi, ofld::min<float> &lo,
                                ofld::max<std::int8_t> &small) {
  std::size_t x = ofld::global_id(0), y = ofld::global_id(1),
              z = ofld::global_id(2);
  if (x >= nx || y >= ny || z >= nz)
    return;
  std::size_t i = x + nx * (y + ny * z);
  if (i % 2)
    return;
  s += v[i];
  hi.combine(v[i]);
  lo.combine(v[i]);
  small.combine(std::int8_t(i % 101));
}

[[offload::kernel]] void scale(std::span<double> x, double a) {
  if (auto i = ofld::global_id(); i < x.size())
    x[i] *= a;
}

namespace {

std::uint64_t State = 0x9e3779b97f4a7c15ull;
std::uint64_t next() {
  State ^= State << 13;
  State ^= State >> 7;
  State ^= State << 17;
  return State;
}
double uniform() { return double(next() >> 11) * 0x1p-53 * 2 - 1; }

template <class T> std::uint64_t bits(T v) {
  std::uint64_t B = 0;
  std::memcpy(&B, &v, sizeof(T));
  return B;
}

/// The documented order, written independently of the header: warps of 32
/// lanes combine "shuffle down" (lane k takes lane k + off, off = 16..1),
/// then warp 0 combines the warps' results the same way; one partial per
/// block; thread t of the last block folds partials t, t + B, ... in order,
/// and the block tree combines those.
template <class T, class Op> T tree(std::vector<T> v, std::size_t n, Op op) {
  std::size_t warps = (n + 31) / 32;
  for (std::size_t w = 0; w < warps; ++w) {
    std::size_t valid = std::min<std::size_t>(32, n - 32 * w);
    for (std::size_t off = 16; off; off /= 2) {
      std::vector<T> before(v.begin() + 32 * w, v.begin() + 32 * w + valid);
      for (std::size_t k = 0; k + off < valid; ++k)
        v[32 * w + k] = op(before[k], before[k + off]);
    }
  }
  if (warps == 1)
    return v[0];
  std::vector<T> r(warps);
  for (std::size_t w = 0; w < warps; ++w)
    r[w] = v[32 * w];
  return tree(r, warps, op);
}
/// One value per thread of a grid of blocks of `block` threads, combined in
/// the documented order.
template <class T, class Op>
T grid_order(const std::vector<T> &threads, std::size_t block, Op op) {
  std::size_t blocks = threads.size() / block;
  std::vector<T> partials(blocks);
  for (std::size_t b = 0; b < blocks; ++b)
    partials[b] = tree(std::vector<T>(threads.begin() + b * block,
                                      threads.begin() + (b + 1) * block),
                       block, op);
  std::size_t n = std::min(block, blocks);
  std::vector<T> fold(block);
  for (std::size_t t = 0; t < n; ++t) {
    fold[t] = partials[t];
    for (std::size_t i = t + block; i < blocks; i += block)
      fold[t] = op(fold[t], partials[i]);
  }
  return tree(fold, n, op);
}

bool ok = true;

void check_dot() {
  const std::size_t n = 100003, block = 256;
  std::vector<double> x(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = uniform();
    y[i] = uniform() * 1e3;
  }
  // Reference: the contributions in the documented order (threads past n
  // contribute nothing: their accumulators hold 0), and the bound against a
  // sum in long double.
  std::size_t blocks = (n + block - 1) / block;
  std::vector<double> contrib(blocks * block, 0.0);
  long double exact = 0, magnitude = 0;
  for (std::size_t i = 0; i < n; ++i) {
    contrib[i] = x[i] * y[i];
    exact += (long double)contrib[i];
    magnitude += std::fabs((long double)contrib[i]);
  }
  double ordered =
      0.5 + grid_order(contrib, block, [](double a, double b) { return a + b; });

  double first = 0;
  bool same = true;
  for (int run = 0; run < 10; ++run) {
    double total = 0.5; // the old value is folded in
    offload(dot, x, y, total);
    if (run == 0)
      first = total;
    same &= bits(total) == bits(first);
  }
  // The longest chain of additions (docs/Reductions.md): one contribution
  // per thread, log2(256) in the block tree, the fold of ceil(blocks / 256)
  // partials, log2(256) in the final tree, the old value.
  long double u = std::ldexp(1.0L, -53);
  long double depth = 1 + 8 + (blocks + block - 1) / block + 8 + 1;
  long double err = std::fabs((long double)first - (exact + 0.5L));
  bool within = err <= depth * u * (magnitude + 0.5L);
  std::printf("dot: n=%zu within bound: %s, documented order bit for bit: %s, "
              "10 runs identical: %s\n",
              n, within ? "yes" : "FAIL", bits(first) == bits(ordered) ? "yes" : "FAIL",
              same ? "yes" : "FAIL");
  if (!within)
    std::printf("FAIL: dot error %Lg > %Lg\n", err, depth * u * magnitude);
  ok &= within && same && bits(first) == bits(ordered);
}

void check_stats() {
  const std::size_t n = 1 << 20;
  std::vector<int> v(n);
  for (int &e : v)
    e = int(next() % 2000000001ull) - 1000000000;
  long long rs = 0;
  int rlo = std::numeric_limits<int>::max(), rhi = std::numeric_limits<int>::min();
  unsigned rw = 7;
  for (int e : v) {
    rs += e;
    rlo = std::min(rlo, e);
    rhi = std::max(rhi, e);
    rw += unsigned(e) * 2654435761u;
  }
  // Several grids: one block, blocks of 100 (not a multiple of 32), more
  // threads than elements, the default shape.
  const ofld::launch shapes[] = {{.grid = {1}, .block = {1024}},
                                 {.grid = {37}, .block = {100}},
                                 {.grid = {5000}, .block = {256}}};
  bool good = true;
  for (const ofld::launch &L : shapes) {
    long long s = 1000;
    int lo = 0, hi = 0;
    unsigned w = 7;
    offload(L, stats, v, s, lo, hi, w);
    good &= e2e::expect_eq("sum", s, rs + 1000);
    good &= e2e::expect_eq("min", lo, std::min(rlo, 0));
    good &= e2e::expect_eq("max", hi, std::max(rhi, 0));
    good &= e2e::expect_eq("wrapping sum", w, rw);
  }
  long long s = 0;
  int lo = std::numeric_limits<int>::max(), hi = std::numeric_limits<int>::min();
  unsigned w = 7;
  offload(stats, v, s, lo, hi, w); // one thread per element
  good &= e2e::expect_eq("sum", s, rs) && e2e::expect_eq("min", lo, rlo) &&
          e2e::expect_eq("max", hi, rhi) && e2e::expect_eq("wrap", w, rw);
  std::printf("integers: sum %lld, min %d, max %d, wrapping sum %u over 4 "
              "grids: %s\n",
              rs, rlo, rhi, rw, good ? "exact" : "FAIL");
  ok &= good;
}

void check_volume() {
  const unsigned nx = 61, ny = 23, nz = 9;
  std::vector<float> v(std::size_t(nx) * ny * nz);
  for (float &e : v)
    e = float(uniform() * 100);
  v[11] = std::numeric_limits<float>::quiet_NaN(); // odd cells do not count
  v[12] = std::numeric_limits<float>::quiet_NaN(); // min and max ignore it
  double exact = 0, magnitude = 0;
  float rhi = -1e30f, rlo = 1e30f;
  std::int8_t rsmall = -128;
  for (std::size_t i = 0; i < v.size(); i += 2) {
    rsmall = std::max<std::int8_t>(rsmall, std::int8_t(i % 101));
    if (std::isnan(v[i]))
      continue;
    exact += v[i];
    magnitude += std::fabs(v[i]);
    rhi = std::max(rhi, v[i]);
    rlo = std::min(rlo, v[i]);
  }
  float s = 0, hi = -1e30f, lo = 1e30f;
  std::int8_t small = -128;
  offload(ofld::launch{.grid = {11, 5, 5}, .block = {6, 5, 2}}, volume, v, nx,
          ny, nz, s, hi, lo, small);
  // The NaN cell makes the sum NaN: sums do not skip NaNs.
  bool good = std::isnan(s) && e2e::expect_eq("max", hi, rhi) &&
              e2e::expect_eq("min", lo, rlo) &&
              e2e::expect_eq("int8 max", small, rsmall);
  v[12] = 0;
  s = 1;
  offload(ofld::launch{.grid = {11, 5, 5}, .block = {6, 5, 2}}, volume, v, nx,
          ny, nz, s, hi, lo, small);
  double bound = 30 * 0x1p-24 * (magnitude + 1);
  good &= std::fabs(double(s) - (exact + 1)) <= bound;
  if (std::fabs(double(s) - (exact + 1)) > bound)
    std::printf("FAIL: float sum %.9g, exact %.9g, bound %.3g\n", s, exact + 1,
                bound);
  std::printf("3-D grid of 3-D blocks: float sum within bound, NaN ignored by "
              "min/max, int8 max: %s\n",
              good ? "yes" : "FAIL");
  ok &= good;
}

void check_resident() {
  const std::size_t n = 50000;
  std::vector<double> x(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = double(i % 17); // small integers: exact in any order
    y[i] = double(i % 5);
  }
  double want = 0;
  for (std::size_t i = 0; i < n; ++i)
    want += x[i] * y[i];
  bool good = true;
  {
    // Resident inputs: the launch moves only the variable.
    ofld::region r{std::span<const double>(x), std::span<const double>(y)};
    double total = 0;
    offload(dot, x, y, total);
    good &= e2e::expect_eq("dot in a region", total, want);
    // On a queue of its own, without waiting: ready after the queue's wait.
    ofld::queue q{0};
    double later = 1;
    offload(ofld::launch{.nowait = true, .queue = q}, dot, x, y, later);
    q.wait();
    good &= e2e::expect_eq("dot .nowait on a queue", later, want + 1);
  }
  // A launch group: x is scaled on the device, then reduced, then scaled
  // again; total accumulates over two launches of the group.
  double total = 0;
  offload(scale, x, 2.0);
  offload(dot, x, y, total);
  offload(scale, x, 0.5);
  offload(dot, x, y, total);
  good &= e2e::expect_eq("dot in a launch group", total, 3 * want);
  std::printf("region, queue with .nowait, launch group: %s\n",
              good ? "exact" : "FAIL");
  ok &= good;
}

} // namespace

int main() {
  check_dot();
  check_stats();
  check_volume();
  check_resident();
  std::printf("%s\n", ok ? "reductions: ok" : "reductions: FAIL");
  return ok ? 0 : 1;
}
