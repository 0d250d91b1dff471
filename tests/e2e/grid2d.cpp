//===- grid2d.cpp - end-to-end: a 2-D grid of 2-D blocks --------------------===//
//
// Part of the offload project's tests. Every pixel is checked, and the
// kernel reports the grid and the block it ran with, each dimension apart.
//
//===----------------------------------------------------------------------===//

#include "expect.h"

#include <cstdio>
#include <span>
#include <vector>

constexpr unsigned W = 300, H = 200;

struct Shape {
  unsigned grid[3], block[3];
};

[[offload::kernel]] void coords(std::span<unsigned> img, unsigned width,
                                unsigned height,
                                [[offload::out]] Shape &shape) {
  std::size_t x = ofld::global_id(0), y = ofld::global_id(1);
  if (x < width && y < height)
    img[y * width + x] = unsigned(x * 1000 + y);
  if (x == 0 && y == 0 && ofld::global_id(2) == 0)
    for (unsigned d = 0; d < 3; ++d) {
      shape.grid[d] = ofld::grid_dim(d);
      shape.block[d] = ofld::block_dim(d);
    }
}

int main() {
  std::vector<unsigned> img(W * H, ~0u), ref(W * H);
  for (unsigned y = 0; y < H; ++y)
    for (unsigned x = 0; x < W; ++x)
      ref[y * W + x] = x * 1000 + y;
  ofld::launch launch{.grid = {(W + 15) / 16, (H + 7) / 8}, .block = {16, 8}};
  Shape shape{};
  offload(launch, coords, img, W, H, shape);
  bool ok = e2e::mismatches("img", img, ref) == 0;
  const unsigned grid[3] = {19, 25, 1}, block[3] = {16, 8, 1};
  ok &= e2e::mismatches("grid", shape.grid, grid) == 0;
  ok &= e2e::mismatches("block", shape.block, block) == 0;
  std::printf("img[last] = %u, grid %ux%ux%u, block %ux%ux%u: %s\n", img.back(),
              shape.grid[0], shape.grid[1], shape.grid[2], shape.block[0],
              shape.block[1], shape.block[2], ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
