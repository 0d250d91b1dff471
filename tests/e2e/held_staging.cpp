//===- held_staging.cpp - end-to-end: large ranges held across launches ---===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//
//
// A region and a launch group hold 4 MiB ranges across launches; they are
// staged through pinned memory where staging is on (CUDA devices, or the
// host target with OFFLOAD_STAGING_ENGINE=omp): tests/lit/staging/
// held-ranges.test counts the copies. Every element is checked.
//
//===----------------------------------------------------------------------===//

#include "expect.h"

#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void twice(std::span<const float> in,
                               std::span<float> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = 2.0f * in[i] + float(i % 3);
}

[[offload::kernel]] void bump(std::span<float> v, float by) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] += by;
}

int main() {
  constexpr std::size_t N = std::size_t(1) << 20; // 4 MiB of floats
  std::vector<float> in(N), out(N, 0.0f), ref(N);
  for (std::size_t i = 0; i < N; ++i) {
    in[i] = float(i % 1000) * 0.5f;
    ref[i] = 2.0f * in[i] + float(i % 3);
  }
  {
    ofld::region resident{std::span<const float>(in),
                          ofld::out(std::span<float>(out))};
    offload(twice, in, out);
    offload(twice, in, out);
  }
  bool region_ok = e2e::mismatches("out", out, ref) == 0;
  std::printf("region: %s\n", region_ok ? "ok" : "FAIL");
  std::fflush(stdout); // in order with the runtime's log on stderr

  std::vector<float> v(N);
  for (std::size_t i = 0; i < N; ++i) {
    v[i] = float(i % 64);
    ref[i] = v[i] + 6.0f;
  }
  offload(bump, v, 1.0f);
  offload(bump, v, 2.0f);
  offload(bump, v, 3.0f);
  bool group_ok = e2e::mismatches("v", v, ref) == 0;
  std::printf("group: %s\n", group_ok ? "ok" : "FAIL");
  return region_ok && group_ok ? 0 : 1;
}
