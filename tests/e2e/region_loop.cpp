//===- region_loop.cpp - end-to-end: 100 launches on resident data -------===//
//
// Part of the offload project's tests. `acc` starts with values of its own,
// so a region that did not copy it in would show.
//
//===----------------------------------------------------------------------===//

#include "expect.h"

#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void step(std::span<const float> in, std::span<float> acc) {
  std::size_t i = ofld::global_id();
  if (i < acc.size())
    acc[i] += in[i];
}

int main() {
  std::vector<float> in(1 << 16), acc(1 << 16), ref(1 << 16);
  for (std::size_t i = 0; i < in.size(); ++i) {
    in[i] = float(i % 7);
    acc[i] = float(i % 5);
    ref[i] = acc[i] + 101.0f * in[i];
  }
  {
    ofld::region resident{std::span<const float>(in), std::span<float>(acc)};
    for (int it = 0; it < 100; ++it)
      offload(step, in, acc); // present: nothing moves
  }                           // acc comes back here
  // Nested and repeated regions over the same data move nothing either.
  {
    ofld::region outer{std::span<float>(acc)};
    ofld::region inner{std::span<const float>(in), std::span<float>(acc)};
    offload(step, in, acc);
  }
  bool ok = e2e::mismatches("acc", acc, ref) == 0;
  std::printf("acc[6] = %.0f: %s\n", acc[6], ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
