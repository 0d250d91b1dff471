//===- out_param.cpp - end-to-end: [[offload::out]] parameters are only copied back ===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <span>
#include <vector>

struct Stats {
  unsigned threads;
  float first;
};

[[offload::kernel]] void iota(std::span<const int> in,
                              [[offload::out]] std::span<int> out,
                              [[offload::out]] Stats &stats) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = in[i] + int(i);
  if (i == 0) {
    stats.threads = ofld::grid_dim() * ofld::block_dim();
    stats.first = 42.0f;
  }
}

int main() {
  std::vector<int> in(3000, 5), out(3000, -1);
  Stats s{0, 0.0f};
  offload(iota, in, out, s);
  bool ok = out[0] == 5 && out[2999] == 3004 && s.first == 42.0f &&
            s.threads == 3072;
  std::printf("out[2999] = %d threads = %u: %s\n", out[2999], s.threads,
              ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
