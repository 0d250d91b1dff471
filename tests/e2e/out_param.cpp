//===- out_param.cpp - end-to-end: [[offload::out]] parameters are only copied back ===//
//
// Part of the offload project's tests. Every element of `out` is checked,
// and the kernel reports its launch shape, grid and block separately: the
// default shape is one thread per element of the span in blocks of 256, so
// 3000 elements are 12 blocks of 256 threads.
//
//===----------------------------------------------------------------------===//

#include "expect.h"

#include <cstdio>
#include <span>
#include <vector>

struct Stats {
  unsigned grid, block;
  float first;
};

[[offload::kernel]] void iota(std::span<const int> in,
                              [[offload::out]] std::span<int> out,
                              [[offload::out]] Stats &stats) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = in[i] + int(i);
  if (i == 0) {
    stats.grid = ofld::grid_dim(0) * ofld::grid_dim(1) * ofld::grid_dim(2);
    stats.block = ofld::block_dim(0) * ofld::block_dim(1) * ofld::block_dim(2);
    stats.first = float(in[0]) + 0.5f;
  }
}

int main() {
  constexpr int N = 3000;
  std::vector<int> in(N), out(N, -1), ref(N);
  for (int i = 0; i < N; ++i) {
    in[i] = (i * 7919) % 1000 - 500;
    ref[i] = in[i] + i;
  }
  Stats s{0, 0, 0.0f};
  offload(iota, in, out, s);
  bool ok = e2e::mismatches("out", out, ref) == 0;
  ok &= e2e::expect_eq("grid", s.grid, (N + 255) / 256);
  ok &= e2e::expect_eq("block", s.block, 256u);
  ok &= e2e::expect_eq("first", s.first, float(in[0]) + 0.5f);
  std::printf("out[2999] = %d, grid %u, block %u, first %g: %s\n", out[N - 1],
              s.grid, s.block, s.first, ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
