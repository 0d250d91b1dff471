//===- default_grid_limit.cpp - runtime faults: a default grid too large --===//
//
// Part of the offload project's tests. A 2-D bounds check admitting more rows
// than grid.y may hold (65535 blocks of 8 rows): the launch is the named
// limits error, with the hint that the default shape followed the bound.
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void rows(int n, std::span<int> out) {
  std::size_t c = ofld::global_id(0), r = ofld::global_id(1);
  if (c < 1 && r < std::size_t(n))
    out[0] = 1;
}

int main(int argc, char **) {
  std::vector<int> out(1, 0);
  offload(rows, 600000 * argc, out);
  std::printf("not reached: %d\n", out[0]);
  return 0;
}
