//===- aliasing.cpp - runtime faults: one buffer passed twice ---------------===//
//
// Part of the offload project's tests. argv[1] picks the case:
//   0: the same range as span<const T> (to) and then span<T> (tofrom)
//   1: the same range, span<T> first
//   2: ranges that overlap partially
//   3: a range inside the other one, the smaller first
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

[[offload::kernel]] void twice(std::span<const float> in, std::span<float> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size() && i < in.size())
    out[i] = 2 * in[i];
}
[[offload::kernel]] void twice_out_first(std::span<float> out,
                                         std::span<const float> in) {
  std::size_t i = ofld::global_id();
  if (i < out.size() && i < in.size())
    out[i] = 2 * in[i];
}

int main(int argc, char **argv) {
  int c = argc > 1 ? std::atoi(argv[1]) : 0;
  std::vector<float> v(1001, 1.0f);
  std::span<float> all(v.data(), 1000);
  switch (c) {
  case 0:
    offload(twice, all, all);
    break;
  case 1:
    offload(twice_out_first, all, all);
    break;
  case 2:
    offload(twice, all, std::span<float>(v.data() + 1, 1000));
    break;
  case 3:
    offload(twice, all.first(500), all);
    break;
  }
  // Every element against what the case must give. Case 2 runs
  // out[i] = 2 * in[i] in parallel with in = v[0, 1000), out = v[1, 1001):
  // v[i] (i >= 1) is doubled either from 1 or from v[i-1]'s new value,
  // whichever its thread read, so each is 2 or twice its neighbour's.
  bool ok = true;
  for (int i = 0; i < 1001; ++i) {
    bool good;
    switch (c) {
    case 2:
      good = i == 0 ? v[i] == 1.0f : v[i] == 2.0f || v[i] == 2.0f * v[i - 1];
      break;
    case 3:
      good = v[i] == (i < 500 ? 2.0f : 1.0f);
      break;
    default:
      good = v[i] == (i < 1000 ? 2.0f : 1.0f);
      break;
    }
    if (!good)
      std::printf("FAIL: v[%d] = %g\n", i, v[i]);
    ok &= good;
  }
  std::printf("case %d: v[0] = %g, v[1] = %g, v[999] = %g: %s\n", c, v[0], v[1],
              v[999], ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
