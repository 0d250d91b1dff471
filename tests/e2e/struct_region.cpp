//===- struct_region.cpp - end-to-end: a region holding a struct of spans -===//
//
// Part of the offload project's tests. `ofld::region r{d}` for a struct of
// spans keeps each span field resident by the field's type, as a launch
// taking `d` would move it, so the launches inside move nothing: the region
// copies each field in at its beginning and back at its end, once.
// tests/lit/e2e/struct_region.test checks the profile's bytes, N = 256:
//   energy (const)             1024 B to the device, at the region
//   acc (float, mutable)       1024 B to and 1024 B back, at the region
//   result ([[offload::out]])  1024 B back only, at the region's end
// and no transfer by the launches, nor by a nested region; r.update_from(s)
// copies every field back mid-region. Then, outside any region: two
// consecutive launches taking the struct (a launch group), one that does
// not wait (.nowait) and one beside a reduction.
//
//===----------------------------------------------------------------------===//

#include "expect.h"

#include <cstdio>
#include <span>
#include <vector>

struct State {
  std::span<const float> energy;
  std::span<float> acc;
  [[offload::out]] std::span<float> result;
};

[[offload::kernel]] void accumulate(const State &s, std::size_t n) {
  if (auto i = ofld::global_id(); i < n)
    s.acc[i] += s.energy[i];
}

[[offload::kernel]] void publish(State s, std::size_t n) {
  if (auto i = ofld::global_id(); i < n)
    s.result[i] = s.acc[i] * 2.0f;
}

[[offload::kernel]] void total(const State &s, std::size_t n,
                                ofld::sum<float> &sum) {
  if (auto i = ofld::global_id(); i < n)
    sum += s.energy[i];
}

int main() {
  constexpr std::size_t N = 256;
  std::vector<float> energy(N), acc(N, 1.0f), result(N, -1.0f);
  for (std::size_t i = 0; i < N; ++i)
    energy[i] = float(i % 4);
  State s{energy, acc, result};

  float mid = 0;
  {
    ofld::region r{s};
    for (int k = 0; k < 2; ++k)
      offload(accumulate, s, N); // acc: 1 + 2 * (i % 4), on the device
    {
      // Nested, and overlapping another argument's range: nothing moves.
      const State &view = s;
      ofld::region inner{view, std::span<const float>(energy)};
      offload(accumulate, s, N); // acc: 1 + 3 * (i % 4)
    }
    offload(publish, s, N); // result: 2 * acc
    r.update_from(s);       // every field's device values, mid-region
    mid = acc[2];
  } // acc and result come back here
  float result3 = result[3];
  bool ok = e2e::mismatches("acc after the region", acc, [&] {
              std::vector<float> w(N);
              for (std::size_t i = 0; i < N; ++i)
                w[i] = 1.0f + 3.0f * float(i % 4);
              return w;
            }()) == 0;
  for (std::size_t i = 0; i < N; ++i)
    ok &= result[i] == 2.0f * acc[i];
  ok &= mid == 7.0f;

  // A launch group of struct launches: acc mapped once for both.
  offload(accumulate, s, N);
  offload(accumulate, s, N);
  // .nowait, then a wait; and a reduction beside the struct.
  offload(ofld::launch{.nowait = true}, accumulate, s, N);
  ofld::wait();
  float sum = 0;
  offload(total, s, N, sum);
  ok &= acc[5] == 1.0f + 6.0f * 1.0f;
  ok &= sum == float(N / 4 * (0 + 1 + 2 + 3));
  std::printf("acc[1] = %.1f, result[3] = %.1f, sum = %.1f: %s\n", acc[1],
              result3, sum, ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
