//===- default_shape.cpp - end-to-end: the default launch shape -----------===//
//
// Part of the offload project's tests. Without a launch configuration a
// kernel gets one thread per element of its first *written* span or array
// parameter (std::span<T>, T(&)[N], std::array<T, N>&, [[offload::out]]),
// else of its first span or array: poly writes all of y, not as many
// elements as coeffs has.
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp> // optional with the plugin

#include "expect.h"

#include <array>
#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void poly(std::span<const float> coeffs,
                              std::span<const float> x, std::span<float> y) {
  std::size_t i = ofld::global_id();
  if (i >= y.size())
    return;
  float r = 0;
  for (std::size_t k = coeffs.size(); k-- > 0;)
    r = r * x[i] + coeffs[k];
  y[i] = r;
}

struct Shape {
  int grid, block;
};

// Only read spans: the first one sets the shape.
[[offload::kernel]] void first_read(std::span<const int> a,
                                    std::span<const int> b, Shape &shape) {
  if (ofld::global_id() == 0)
    shape = {int(ofld::grid_dim()), int(ofld::block_dim())};
  (void)a, (void)b;
}

// A written array after a read span.
[[offload::kernel]] void to_array(std::span<const int> in, int (&out)[300]) {
  std::size_t i = ofld::global_id();
  if (i < 300)
    out[i] = in[i % in.size()] + 1;
}

// [[offload::out]] after a read span.
[[offload::kernel]] void to_out(std::span<const int> in,
                                [[offload::out]] std::span<int> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = in[0] + int(i);
}

// A std::array written after a read one.
[[offload::kernel]] void to_std_array(const std::array<int, 4> &in,
                                      std::array<int, 700> &out) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = in[i % 4];
}

int main() {
  bool ok = true;
  std::vector<float> coeffs{1.0f, 2.0f, 3.0f}, x(100000), y(100000, -1.0f);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = float(i % 7);
  offload(poly, coeffs, x, y);
  std::vector<float> y_ref(y.size());
  for (std::size_t i = 0; i < y.size(); ++i)
    y_ref[i] = 1.0f + 2.0f * x[i] + 3.0f * x[i] * x[i];
  std::size_t wrong = e2e::mismatches("y", y, y_ref);
  std::printf("poly: %zu of %zu outputs wrong\n", wrong, y.size());
  ok &= !wrong;

  std::vector<int> a(1000), b(5000);
  Shape shape{0, 0};
  offload(first_read, a, b, shape);
  std::printf("first_read: grid %d, block %d\n", shape.grid, shape.block);
  // 1000 threads in blocks of 256: 4 blocks.
  ok &= e2e::expect_eq("first_read grid", shape.grid, 4);
  ok &= e2e::expect_eq("first_read block", shape.block, 256);

  // Every element of each written array: a thread too few leaves its
  // element unwritten.
  std::vector<int> in{1, 2, 3};
  int out[300] = {}, out_ref[300];
  for (int i = 0; i < 300; ++i)
    out_ref[i] = in[i % 3] + 1;
  offload(to_array, in, out);
  std::printf("to_array: out[299] = %d\n", out[299]);
  ok &= e2e::mismatches("out", out, out_ref) == 0;

  std::vector<int> o(777, -1), o_ref(777);
  for (int i = 0; i < 777; ++i)
    o_ref[i] = in[0] + i;
  offload(to_out, in, o);
  std::printf("to_out: o[776] = %d\n", o[776]);
  ok &= e2e::mismatches("o", o, o_ref) == 0;

  std::array<int, 4> s{5, 6, 7, 8};
  std::array<int, 700> d{}, d_ref;
  for (int i = 0; i < 700; ++i)
    d_ref[i] = s[i % 4];
  offload(to_std_array, s, d);
  std::printf("to_std_array: d[699] = %d\n", d[699]);
  ok &= e2e::mismatches("d", d, d_ref) == 0;

  std::printf("default shape: %s\n", ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
