//===- grid2d.cpp - end-to-end: a 2-D grid of 2-D blocks --------------------===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <span>
#include <vector>

constexpr unsigned W = 300, H = 200;

[[offload::kernel]] void coords(std::span<unsigned> img, unsigned width,
                                unsigned height) {
  std::size_t x = ofld::global_id(0), y = ofld::global_id(1);
  if (x < width && y < height)
    img[y * width + x] = unsigned(x * 1000 + y);
}

int main() {
  std::vector<unsigned> img(W * H, 0);
  ofld::launch shape{.grid = {(W + 15) / 16, (H + 15) / 16}, .block = {16, 16}};
  offload(shape, coords, img, W, H);
  bool ok = true;
  for (unsigned y = 0; y < H; ++y)
    for (unsigned x = 0; x < W; ++x)
      ok &= img[y * W + x] == x * 1000 + y;
  std::printf("img[last] = %u: %s\n", img.back(), ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
