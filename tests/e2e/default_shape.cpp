//===- default_shape.cpp - end-to-end: the default launch shape -----------===//
//
// Part of the offload project's tests. Without a grid a launch runs one
// thread per index the kernel's own bounds check admits, in each form people
// write it; each kernel counts its threads (ofld::atomic_add), so a launch
// too small (a histogram of 50,000 inputs sized by its 17 bins) or too large
// (1,024 threads for a kernel that reads no index) shows as a count, and
// every result is checked in full.
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp> // optional with the plugin

#include "expect.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <span>
#include <vector>

// `if (i < v.size())`: the inputs, not the 17 bins, set the shape.
[[offload::kernel]] void hist(std::span<const int> v, std::span<int> bins,
                              unsigned &threads) {
  ofld::atomic_add(&threads, 1u);
  std::size_t i = ofld::global_id();
  if (i < v.size())
    ofld::atomic_add(&bins[std::size_t(v[i]) % bins.size()], 1);
}

// The same into a std::array of 8 bins.
[[offload::kernel]] void hist8(std::span<const int> v,
                               std::array<int, 8> &bins, unsigned &threads) {
  ofld::atomic_add(&threads, 1u);
  std::size_t i = ofld::global_id();
  if (i < v.size())
    ofld::atomic_add(&bins[std::size_t(v[i]) % 8], 1);
}

// No thread index: one thread, as CUDA's <<<1, 1>>>.
[[offload::kernel]] void first(std::span<const double> v, double &out,
                               unsigned &threads) {
  ofld::atomic_add(&threads, 1u);
  out = v[0] + v[v.size() - 1];
}

// A scalar bound and an early return, through CUDA's own index.
[[offload::kernel]] void scale(int n, float a, std::span<float> y,
                               unsigned &threads) {
  ofld::atomic_add(&threads, 1u);
  int i = int(ofld::block_id() * ofld::block_dim() + ofld::thread_id());
  if (i >= n)
    return;
  y[i] *= a;
}

// A grid-stride loop over half the array.
[[offload::kernel]] void stride(std::span<float> y, unsigned &threads) {
  ofld::atomic_add(&threads, 1u);
  for (std::size_t i = ofld::global_id(); i < y.size() / 2;
       i += ofld::grid_dim() * ofld::block_dim())
    y[i] += 1.0f;
}

// 2-D: rows and columns bound dimensions 1 and 0.
[[offload::kernel]] void grid2d(int rows, int cols, std::span<int> m,
                                unsigned &threads) {
  ofld::atomic_add(&threads, 1u);
  std::size_t c = ofld::global_id(0), r = ofld::global_id(1);
  if (r < std::size_t(rows) && c < std::size_t(cols))
    m[r * std::size_t(cols) + c] = int(r * 1000 + c);
}

// The written span is longer than the read ones; the read span bounds it.
[[offload::kernel]] void poly(std::span<const float> coeffs,
                              std::span<const float> x, std::span<float> y) {
  std::size_t i = ofld::global_id();
  if (i >= x.size())
    return;
  float r = 0;
  for (std::size_t k = coeffs.size(); k-- > 0;)
    r = r * x[i] + coeffs[k];
  y[i] = r;
}

struct Dims {
  int n, m;
};

// A field of a struct, a product, the smaller of two bounds.
[[offload::kernel]] void fill_nm(const Dims &d, std::span<int> out,
                                 unsigned &threads) {
  ofld::atomic_add(&threads, 1u);
  std::size_t i = ofld::global_id();
  if (i < std::size_t(d.n * d.m) && i < out.size())
    out[i] = int(i) + 1;
}

// Two guards one after the other: the larger one sets the shape.
[[offload::kernel]] void two_guards(std::span<int> a, std::span<int> b,
                                    unsigned &threads) {
  ofld::atomic_add(&threads, 1u);
  std::size_t i = ofld::global_id();
  if (i < a.size())
    a[i] = 1;
  if (i < b.size() - 1)
    b[i] = 2;
}

int main() {
  bool ok = true;
  auto threads = [&](const char *what, unsigned got, unsigned want) {
    std::printf("%s: %u threads\n", what, got);
    ok &= e2e::expect_eq(what, got, want);
  };

  std::vector<int> v(50000);
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = int(i * 7);
  std::vector<int> bins(17, 0), bins_ref(17, 0);
  std::array<int, 8> bins8{}, bins8_ref{};
  for (int x : v) {
    ++bins_ref[std::size_t(x) % 17];
    ++bins8_ref[std::size_t(x) % 8];
  }
  unsigned t = 0;
  offload(hist, v, bins, t);
  threads("hist", t, 50176); // 196 blocks of 256
  ok &= e2e::mismatches("bins", bins, bins_ref) == 0;
  t = 0;
  offload(hist8, v, bins8, t);
  threads("hist8", t, 50176);
  ok &= e2e::mismatches("bins8", bins8, bins8_ref) == 0;

  std::vector<double> d{3.5, 1.0, 2.25};
  double out = 0;
  t = 0;
  offload(first, d, out, t);
  threads("first", t, 1);
  ok &= e2e::expect_eq("first out", out, 5.75);

  std::vector<float> y(1000, 1.0f), y_ref(1000, 1.0f);
  for (int i = 0; i < 999; ++i)
    y_ref[std::size_t(i)] = 2.0f;
  t = 0;
  offload(scale, 999, 2.0f, y, t);
  threads("scale", t, 1024);
  ok &= e2e::mismatches("scale y", y, y_ref) == 0;

  for (std::size_t i = 0; i < 500; ++i)
    y_ref[i] += 1.0f;
  t = 0;
  offload(stride, y, t);
  threads("stride", t, 512);
  ok &= e2e::mismatches("stride y", y, y_ref) == 0;

  const int rows = 30, cols = 40;
  std::vector<int> m(rows * cols, -1), m_ref(rows * cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      m_ref[std::size_t(r * cols + c)] = r * 1000 + c;
  t = 0;
  offload(grid2d, rows, cols, m, t);
  threads("grid2d", t, 64 * 32); // blocks of 32x8: 2 x 4 of them
  ok &= e2e::mismatches("grid2d m", m, m_ref) == 0;

  std::vector<float> coeffs{1.0f, 2.0f, 3.0f}, x(100000), p(100000, -1.0f);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = float(i % 7);
  std::vector<float> p_ref(p.size());
  for (std::size_t i = 0; i < p.size(); ++i)
    p_ref[i] = 1.0f + 2.0f * x[i] + 3.0f * x[i] * x[i];
  offload(poly, coeffs, x, p);
  std::printf("poly: p[99999] = %g\n", double(p[99999]));
  ok &= e2e::mismatches("poly p", p, p_ref) == 0;

  std::vector<int> nm(700, 0), nm_ref(700, 0);
  for (int i = 0; i < 600; ++i)
    nm_ref[std::size_t(i)] = i + 1;
  t = 0;
  offload(fill_nm, Dims{20, 30}, nm, t);
  threads("fill_nm", t, 768); // min(20 * 30, 700) = 600 -> 3 blocks
  ok &= e2e::mismatches("fill_nm", nm, nm_ref) == 0;

  std::vector<int> a(100, 0), b(301, 0), a_ref(100, 1), b_ref(301, 2);
  b_ref[300] = 0;
  t = 0;
  offload(two_guards, a, b, t);
  threads("two_guards", t, 512); // max(100, 300)
  ok &= e2e::mismatches("two_guards a", a, a_ref) == 0;
  ok &= e2e::mismatches("two_guards b", b, b_ref) == 0;

  // An empty input launches nothing.
  std::vector<int> none;
  std::vector<int> empty_bins(17, 0);
  t = 0;
  offload(hist, none, empty_bins, t);
  threads("hist of nothing", t, 0);

  std::printf("default shape: %s\n", ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
