//===- scratch_in.cpp - end-to-end: [[offload::in]] scratch inputs -------===//
//
// Part of the offload project's tests. A backprop-like layer, as CUDA ports
// write it: the kernel scales the input weights in place (the device copy
// is private in CUDA) and sums each row. With [[offload::in]] the weights
// are copied in and never back: the host's weights are unchanged, on every
// path (a device's copy, or a private copy where the kernel runs on the
// host's memory). A `T&` parameter likewise: the kernel uses it as
// scratch, the host object keeps its value. Every element is checked.
//
//===----------------------------------------------------------------------===//

#include "expect.h"

#include <cstdio>
#include <span>
#include <vector>

struct Stats {
  float sum;
  int count;
};

// One thread per row of w (rows x m): w[i][j] *= x[j], then y[i] = the row's
// sum.
[[offload::kernel]] void layer_forward([[offload::in]] std::span<float> w,
                                       std::span<const float> x,
                                       [[offload::out]] std::span<float> y) {
  std::size_t m = x.size();
  if (auto i = ofld::global_id(); i < y.size()) {
    for (std::size_t j = 0; j < m; ++j)
      w[i * m + j] *= x[j];
    float s = 0.0f;
    for (std::size_t j = 0; j < m; ++j)
      s += w[i * m + j];
    y[i] = s;
  }
}

// The mean, computed in the parameter itself.
[[offload::kernel]] void mean([[offload::in]] Stats &s,
                              [[offload::out]] float &r) {
  if (ofld::global_id() == 0) {
    s.sum /= float(s.count);
    s.count = 1;
    r = s.sum;
  }
}

int main() {
  constexpr std::size_t Rows = 300, M = 16;
  std::vector<float> w(Rows * M), x(M), y(Rows, -1.0f), wantY(Rows);
  for (std::size_t i = 0; i < w.size(); ++i)
    w[i] = float(i % 7) - 3.0f;
  for (std::size_t j = 0; j < M; ++j)
    x[j] = float(j % 3);
  const std::vector<float> w0 = w;
  for (std::size_t i = 0; i < Rows; ++i) {
    float s = 0.0f;
    for (std::size_t j = 0; j < M; ++j)
      s += w[i * M + j] * x[j];
    wantY[i] = s;
  }

  offload(layer_forward, w, x, y);
  // Twice: the second launch sees the host's weights again, not the first
  // launch's scaled ones.
  offload(layer_forward, w, x, y);
  bool ok = e2e::mismatches("y", y, wantY) == 0;
  ok &= e2e::mismatches("w (host, unchanged)", w, w0) == 0;

  Stats st{12.0f, 4};
  float r = 0.0f;
  offload(ofld::launch{.grid = {1}, .block = {1}}, mean, st, r);
  ok &= e2e::expect_eq("mean", r, 3.0f);
  ok &= e2e::expect_eq("st.sum (host, unchanged)", st.sum, 12.0f);
  ok &= e2e::expect_eq("st.count (host, unchanged)", st.count, 4);

  std::printf("y[299] = %g, w[0] = %g, mean %g, st {%g, %d}: %s\n", y[Rows - 1],
              w[0], r, st.sum, st.count, ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
