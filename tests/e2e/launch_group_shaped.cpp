//===- launch_group_shaped.cpp - end-to-end: groups of shaped launches ----===//
//
// Part of the offload project's tests. Launches with a launch configuration
// join launch groups (issue 30, item 2) where it keeps the default device,
// queue and waiting: `va` (two `ofld::launch{.grid, .block}` launches) and
// `vb` (a const shape variable, with a plain launch between) move in once
// and back once. Launches that name a device each (`vc`) are not joined,
// nor one whose grid reads what the launch before wrote (`vd`, `blocks`):
// held on the device, its host copy would be stale when the grid is read,
// and the second launch would run no block. Launches on data a region holds
// (`ve`) form no group of their own. Every element is checked against the
// host.
//
//===----------------------------------------------------------------------===//

#include "expect.h"

#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void scale(std::span<float> v, float a) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] *= a;
}
[[offload::kernel]] void shift(std::span<float> v, float b) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] += b;
}
[[offload::kernel]] void count_blocks(std::span<const float> v, int &blocks) {
  if (ofld::global_id() == 0)
    blocks = int((v.size() + 255) / 256);
}
[[offload::kernel]] void twice(std::span<float> v, const int &blocks) {
  std::size_t i = ofld::global_id();
  if (i < v.size() && blocks > 0)
    v[i] *= 2.0f;
}

int main() {
  const int n = 1000;
  std::vector<float> va(n), vb(n), vc(n), vd(n), ve(n);
  std::vector<float> ra(n), rb(n), rc(n), rd(n), re(n);
  for (int i = 0; i < n; ++i) {
    va[i] = vb[i] = vc[i] = vd[i] = ve[i] = float(i % 10);
    ra[i] = va[i] * 3.0f + 1.0f;
    rb[i] = (vb[i] * 2.0f + 1.0f) * 2.0f;
    rc[i] = vc[i] * 2.0f + 1.0f;
    rd[i] = vd[i] * 2.0f;
    re[i] = ve[i] * 2.0f + 1.0f;
  }

  // Written out: one group.
  offload(ofld::launch{.grid = {(n + 255) / 256}, .block = {256}}, scale, va,
          3.0f);
  offload(ofld::launch{.grid = {(n + 255) / 256}, .block = {256}}, shift, va,
          1.0f);

  // A const shape variable, and a launch without one: one group.
  const ofld::launch shape = {.grid = {(n + 127) / 128}, .block = {128}};
  offload(shape, scale, vb, 2.0f);
  offload(shift, vb, 1.0f);
  offload(shape, scale, vb, 2.0f);

  // Each names its device: no group, although both name the same one (the
  // first, or the default where there is none: a build without offloading).
  int device = ofld::device_count() > 0 ? 0 : -1;
  offload(ofld::launch{.device = device}, scale, vc, 2.0f);
  offload(ofld::launch{.device = device}, shift, vc, 1.0f);

  // The second grid reads `blocks`, which the first launch writes: no group.
  int blocks = 0;
  offload(count_blocks, vd, blocks);
  offload(ofld::launch{.grid = {blocks}, .block = {256}}, twice, vd, blocks);

  // Held by a region already: the group holds nothing of its own (no wait
  // at its end; its launches return once queued, as without it).
  {
    ofld::region resident{std::span<float>(ve)};
    offload(shape, scale, ve, 2.0f);
    offload(shape, shift, ve, 1.0f);
  }

  bool ok = e2e::mismatches("va", va, ra) == 0;
  ok &= e2e::mismatches("vb", vb, rb) == 0;
  ok &= e2e::mismatches("vc", vc, rc) == 0;
  ok &= e2e::mismatches("vd", vd, rd) == 0;
  ok &= e2e::mismatches("ve", ve, re) == 0;
  ok &= e2e::expect_eq("blocks", blocks, 4);
  std::printf("va[9] = %g, vb[9] = %g, vc[9] = %g, vd[9] = %g, ve[9] = %g, "
              "blocks = %d: %s\n",
              va[9], vb[9], vc[9], vd[9], ve[9], blocks, ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
