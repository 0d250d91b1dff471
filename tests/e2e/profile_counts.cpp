//===- profile_counts.cpp - end-to-end: what OFFLOAD_PROFILE shows ------===//
//
// Part of the offload project's tests. Known launches and byte counts per
// call site (tests/lit/profile/table.test checks the table):
//   scale, first site: 3 launches; v (1000 floats, 4000 B) in and out each.
//   scale, .nowait site: 1 launch; 4000 B in and out.
//   gather: 1 launch; in (2048 floats, 8192 B) in, out (8192 B) back only.
//   step: 5 launches inside a region: nothing moves for them; the region
//   copies in (8192 B) and acc (8192 B) in, and acc back.
//
//===----------------------------------------------------------------------===//

#include "expect.h"

#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void scale(std::span<float> v, float a) {
  if (auto i = ofld::global_id(); i < v.size())
    v[i] *= a;
}

[[offload::kernel]] void gather(std::span<const float> in,
                                [[offload::out]] std::span<float> out) {
  if (auto i = ofld::global_id(); i < out.size())
    out[i] = in[out.size() - 1 - i];
}

[[offload::kernel]] void step(std::span<const float> in, std::span<float> acc) {
  if (auto i = ofld::global_id(); i < acc.size())
    acc[i] += in[i];
}

int main() {
  std::vector<float> v(1000, 1.0f);
  for (int k = 0; k < 3 && v[0] > 0; ++k) // read here: copied per launch
    offload(scale, v, 2.0f);
  offload(ofld::launch{.nowait = true}, scale, v, 0.5f);
  ofld::wait();

  std::vector<float> in(2048), out(2048), acc(2048, 1.0f);
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = float(i);
  offload(gather, in, out);
  {
    ofld::region resident{std::span<const float>(in), std::span<float>(acc)};
    for (int k = 0; k < 5; ++k)
      offload(step, in, acc);
  }

  std::vector<float> wantV(1000, 4.0f), wantOut(2048), wantAcc(2048);
  for (std::size_t i = 0; i < in.size(); ++i) {
    wantOut[i] = in[in.size() - 1 - i];
    wantAcc[i] = 1.0f + 5 * in[i];
  }
  bool ok = e2e::mismatches("v", v, wantV) == 0;
  ok &= e2e::mismatches("out", out, wantOut) == 0;
  ok &= e2e::mismatches("acc", acc, wantAcc) == 0;
  std::printf("profile counts: %s\n", ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
