//===- warp_ops.cpp - end-to-end: warp-level functions --------------------===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//
//
// Every warp function of offload/device.hpp, its result checked exactly
// against a host reference computed for the warp size the kernel reports
// (32 on NVIDIA and the CPU paths, 64 on AMD): lane ids, the four shuffles
// on int, unsigned, long long, float, double and an 8-byte struct, ballot,
// any, all, sync_warp ordering shared-array writes within a warp, a warp
// reduction with shfl_down and a block reduction through warps (a
// shared_array of warp sums, one sync_threads()). Full blocks of 128, and
// blocks of 48 (a partial last warp) for ballot, any, all and lane ids.
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp>

#include "expect.h"

#include <cstdint>
#include <cstdio>
#include <span>
#include <vector>

struct pair {
  float a;
  int b;
  bool operator==(const pair &o) const { return a == o.a && b == o.b; }
  explicit operator double() const { return a + b; }
};

/// The per-thread results, one array each.
enum field : unsigned {
  Lane,
  ShflInt,
  ShflWrap,
  UpFloat,
  DownDouble,
  XorLong,
  XorUnsigned,
  ShflPair,
  Ballot,
  AnyAll,
  WarpNeighbour,
  WarpSum,
  Fields
};

/// Thread `g`'s value.
inline int value(std::size_t g) { return int(g * 37 % 101) - 50; }

[[offload::kernel]] void warp_ops([[offload::out]] std::span<long long> out,
                                  [[offload::out]] std::span<long long> block_sum,
                                  [[offload::out]] unsigned &warp_size,
                                  bool full) {
  ofld::shared_array<int, 1024> slots;
  ofld::shared_array<long long, 32> warp_sums;
  const std::size_t g = ofld::global_id();
  const std::uint32_t t = ofld::thread_id(), W = ofld::warp_size();
  const std::uint32_t lane = ofld::lane_id();
  const int v = value(g);
  long long *o = &out[g * Fields];
  if (g == 0)
    warp_size = W;

  o[Lane] = lane;
  const std::uint64_t mask = ofld::ballot(v % 3 == 0);
  o[Ballot] = (long long)mask;
  o[AnyAll] = ofld::any(lane == 7) | ofld::any(false) << 1 |
              ofld::all(lane < W) << 2 | ofld::all(t % 2 == 0) << 3 |
              ofld::all(v < 1000) << 4;
  if (!full)
    return;
  o[ShflInt] = ofld::shfl(v, 5);
  o[ShflWrap] = ofld::shfl(v, W + 3);
  o[UpFloat] = (long long)(ofld::shfl_up(v * 0.5f, 1) * 2);
  o[DownDouble] = (long long)(ofld::shfl_down(v * 0.25, 2) * 4);
  o[XorLong] = ofld::shfl_xor(v * 10000000000ll, 1) / 10000000000ll;
  o[XorUnsigned] = ofld::shfl_xor(unsigned(v + 100), 16u);
  const pair p = ofld::shfl(pair{float(v), v + 1}, lane ^ 3);
  o[ShflPair] = (long long)p.a * 1000 + p.b;

  // Within a warp, sync_warp() orders shared-array writes and reads.
  slots[t] = v;
  ofld::sync_warp();
  o[WarpNeighbour] = slots[t ^ 1];

  // A warp's sum by shfl_down: lane 0 has it.
  long long s = v;
  for (std::uint32_t d = W / 2; d > 0; d /= 2)
    s += ofld::shfl_down(s, d);
  o[WarpSum] = ofld::shfl(s, 0);

  // The block's sum through warps: their sums, then warp 0 adds them.
  if (lane == 0)
    warp_sums[t / W] = s;
  ofld::sync_threads();
  if (t < W) {
    const std::uint32_t warps = ofld::block_dim() / W;
    long long b = lane < warps ? warp_sums[lane] : 0;
    for (std::uint32_t d = W / 2; d > 0; d /= 2)
      b += ofld::shfl_down(b, d);
    if (t == 0)
      block_sum[ofld::block_id()] = b;
  }
}

/// The reference of one launch of `blocks` blocks of `threads`.
static std::vector<long long> reference(unsigned blocks, unsigned threads,
                                        unsigned W, bool full,
                                        std::vector<long long> &block_sum) {
  std::vector<long long> out(std::size_t(blocks) * threads * Fields, -1);
  block_sum.assign(blocks, -1);
  for (unsigned b = 0; b < blocks; ++b) {
    long long total = 0;
    for (unsigned t = 0; t < threads; ++t) {
      std::size_t g = std::size_t(b) * threads + t;
      long long *o = &out[g * Fields];
      unsigned lane = t % W, first = t - lane;
      unsigned lanes = threads - first < W ? threads - first : W;
      auto at = [&](unsigned l) { return value(std::size_t(b) * threads + first + l); };
      o[Lane] = lane;
      std::uint64_t mask = 0;
      long long sum = 0;
      for (unsigned l = 0; l < lanes; ++l) {
        mask |= std::uint64_t(at(l) % 3 == 0) << l;
        sum += at(l);
      }
      o[Ballot] = (long long)mask;
      bool all_even = true;
      for (unsigned l = 0; l < lanes; ++l)
        all_even &= (first + l) % 2 == 0;
      o[AnyAll] = (lanes > 7) | 0 << 1 | 1 << 2 | all_even << 3 | 1 << 4;
      if (!full)
        continue;
      o[ShflInt] = at(5);
      o[ShflWrap] = at(3);
      o[UpFloat] = at(lane >= 1 ? lane - 1 : lane);
      o[DownDouble] = at(lane + 2 < W ? lane + 2 : lane);
      o[XorLong] = at(lane ^ 1);
      o[XorUnsigned] = at((lane ^ 16) % W) + 100;
      o[ShflPair] = at(lane ^ 3) * 1000LL + at(lane ^ 3) + 1;
      o[WarpNeighbour] = at(lane ^ 1);
      o[WarpSum] = sum;
      total += value(g);
    }
    block_sum[b] = full ? total : -1;
  }
  return out;
}

static bool run(const char *what, unsigned blocks, unsigned threads, bool full) {
  std::vector<long long> out(std::size_t(blocks) * threads * Fields, -1);
  std::vector<long long> sums(blocks, -1);
  unsigned W = 0;
  offload(ofld::launch{.grid = {blocks}, .block = {threads}}, warp_ops, out,
          sums, W, full);
  std::vector<long long> want_sums;
  std::vector<long long> want =
      reference(blocks, threads, W ? W : 32, full, want_sums);
  static const char *names[Fields] = {
      "lane_id",      "shfl(int, 5)",           "shfl(int, W + 3)",
      "shfl_up(float, 1)", "shfl_down(double, 2)", "shfl_xor(long long, 1)",
      "shfl_xor(unsigned, 16)", "shfl(pair, lane ^ 3)", "ballot",
      "any/all",      "sync_warp neighbour",    "warp sum by shfl_down"};
  bool ok = true;
  for (unsigned f = 0; f < Fields; ++f) {
    if (!full && f != Lane && f != Ballot && f != AnyAll)
      continue;
    std::vector<long long> got_f, want_f;
    for (std::size_t g = 0; g < std::size_t(blocks) * threads; ++g) {
      got_f.push_back(out[g * Fields + f]);
      want_f.push_back(want[g * Fields + f]);
    }
    bool good = e2e::mismatches(names[f], got_f, want_f) == 0;
    std::printf("%s: %s: %s\n", what, names[f], good ? "ok" : "FAIL");
    ok &= good;
  }
  if (full) {
    bool good = e2e::mismatches("block sums", sums, want_sums) == 0;
    std::printf("%s: block sums through warps: %s\n", what, good ? "ok" : "FAIL");
    ok &= good;
  }
  return ok;
}

int main() {
  bool ok = run("blocks of 128", 3, 128, true);
  ok &= run("blocks of 48", 2, 48, false);
  std::printf("%s\n", ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
