//===- vocabulary_params.cpp - end-to-end: std::pair, tuple, optional, complex ===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//
//
// Types whose copy is trivial (trivial copy constructor and destructor) but
// which are not trivially copyable (their assignment operators are
// user-provided) travel like any other: by value, by reference both ways and
// as span elements. Every element is checked against a host computation;
// all values are small integers or multiples of 1/4, exact on every target.
//
//===----------------------------------------------------------------------===//

#include <array>
#include <complex>
#include <cstdio>
#include <optional>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

/// A user aggregate with its own assignment: not trivially copyable.
struct Scaled {
  int factor;
  float offset;
  Scaled &operator=(const Scaled &o) {
    factor = o.factor;
    offset = o.offset;
    return *this;
  }
};

using Cell = std::pair<int, float>;
using Sample = std::tuple<int, int, float>;

float element(std::pair<int, float> p, const std::tuple<int, float, double> &t,
              std::optional<float> o, std::optional<float> none,
              std::complex<float> c, Scaled s, const Cell &cell,
              const Sample &sample, std::size_t i) {
  return float(p.first) + p.second + std::get<0>(t) + std::get<1>(t) +
         float(std::get<2>(t)) + o.value_or(-100.0f) + none.value_or(0.75f) +
         c.real() - c.imag() + float(s.factor * cell.first) + s.offset +
         cell.second + float(std::get<0>(sample) * std::get<1>(sample)) +
         std::get<2>(sample) + float(i % 7);
}

[[offload::kernel]] void vocabulary(std::pair<int, float> p,
                                    const std::tuple<int, float, double> &t,
                                    std::optional<float> o,
                                    std::optional<float> none,
                                    std::complex<float> c, Scaled s,
                                    std::span<Cell> cells,
                                    std::span<const Sample> samples,
                                    std::span<float> out,
                                    std::pair<int, int> &counts,
                                    std::array<Cell, 4> &corners) {
  std::size_t i = ofld::global_id();
  if (i >= out.size())
    return;
  out[i] = element(p, t, o, none, c, s, cells[i], samples[i], i);
  cells[i] = {cells[i].first + 1, cells[i].second * 2.0f};
  if (i == 0) {
    counts = {counts.first + int(out.size()), counts.second - 1};
    for (Cell &k : corners)
      k = {k.second > 0 ? k.first * 10 : k.first, -k.second};
  }
}

int main() {
  constexpr std::size_t N = 777;
  std::pair<int, float> p{3, 0.5f};
  std::tuple<int, float, double> t{4, 0.25f, 8.0};
  std::optional<float> o = 1.5f, none;
  std::complex<float> c{6.0f, 2.0f};
  Scaled s{2, 0.75f};
  std::vector<Cell> cells(N);
  std::vector<Sample> samples(N);
  for (std::size_t i = 0; i < N; ++i) {
    cells[i] = {int(i % 11), float(i % 5) * 0.25f};
    samples[i] = {int(i % 3), int(i % 4), float(i % 9) * 0.5f};
  }
  const std::vector<Cell> before = cells;
  std::vector<float> out(N, -1.0f);
  std::pair<int, int> counts{5, 5};
  std::array<Cell, 4> corners{{{1, 1.0f}, {2, -2.0f}, {3, 0.25f}, {4, 0.0f}}};
  offload(vocabulary, p, t, o, none, c, s, cells, samples, out, counts,
          corners);

  int bad = 0;
  for (std::size_t i = 0; i < N; ++i) {
    float want = element(p, t, o, none, c, s, before[i], samples[i], i);
    Cell cell{before[i].first + 1, before[i].second * 2.0f};
    if (out[i] != want || cells[i] != cell) {
      if (bad++ < 5)
        std::printf("FAIL at %zu: %g (expected %g), cell (%d, %g)\n", i,
                    out[i], want, cells[i].first, cells[i].second);
    }
  }
  std::array<Cell, 4> corners_want{
      {{10, -1.0f}, {2, 2.0f}, {30, -0.25f}, {4, -0.0f}}};
  bool extra_ok = counts == std::pair<int, int>{5 + int(N), 4} &&
                  corners == corners_want;
  if (!extra_ok)
    ++bad;
  std::printf("out[0] = %g out[%zu] = %g counts = (%d, %d) corners[0] = "
              "(%d, %g): %s\n",
              out[0], N - 1, out[N - 1], counts.first, counts.second,
              corners[0].first, corners[0].second, bad ? "FAIL" : "ok");
  return bad ? 1 : 0;
}
