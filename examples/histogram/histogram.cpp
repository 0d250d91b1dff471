//===- histogram.cpp - a 256-bin histogram with atomics -------------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The histogram of an 8-bit image, two ways:
//  * global: one thread per pixel, each adding 1 to its bin in device
//    memory with ofld::atomic_add -- simple, but threads that hit the same
//    bin wait for each other;
//  * block: each block counts into its own ofld::shared_array of bins, then
//    adds those to the global bins, once per bin and block.
// Both are checked bin by bin against a count on the host.
//
//   histogram [pixels]     (default 2^26)
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

constexpr unsigned Bins = 256;

[[offload::kernel]] void histogram_global(std::span<const std::uint8_t> pixels,
                                          std::span<unsigned> bins) {
  std::size_t i = ofld::global_id();
  if (i < pixels.size())
    ofld::atomic_add(&bins[pixels[i]], 1u);
}

[[offload::kernel]] void histogram_block(std::span<const std::uint8_t> pixels,
                                         std::span<unsigned> bins) {
  ofld::shared_array<unsigned, Bins, struct block_bins> local;
  unsigned t = ofld::thread_id(), threads = ofld::block_dim();
  for (unsigned b = t; b < Bins; b += threads)
    local[b] = 0;
  ofld::sync_threads();
  // A grid-stride loop: the grid need not cover the image.
  std::size_t stride = std::size_t(threads) * ofld::grid_dim();
  for (std::size_t i = ofld::global_id(); i < pixels.size(); i += stride)
    ofld::atomic_add(&local[pixels[i]], 1u);
  ofld::sync_threads();
  for (unsigned b = t; b < Bins; b += threads)
    if (local[b])
      ofld::atomic_add(&bins[b], local[b]);
}

namespace {
/// A dark image with a bright patch and noise: most pixels fall into few
/// bins, which is where atomics contend.
std::vector<std::uint8_t> image(std::size_t n) {
  std::vector<std::uint8_t> px(n);
  std::uint32_t state = 12345;
  for (std::size_t i = 0; i < n; ++i) {
    state = state * 1664525u + 1013904223u; // LCG
    unsigned noise = state >> 28;           // 0..15
    px[i] = std::uint8_t((i % 1000 < 100 ? 200 : 20) + noise);
  }
  return px;
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}
} // namespace

int main(int argc, char **argv) {
  std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1 << 26;
  std::vector<std::uint8_t> pixels = image(n);
  std::vector<unsigned> expected(Bins, 0);
  for (std::uint8_t p : pixels)
    ++expected[p];

  std::vector<unsigned> global(Bins, 0), block(Bins, 0);
  auto start = std::chrono::steady_clock::now();
  // One thread per pixel, as the kernel's bounds check would give too; the
  // grid is spelled out so that builds without the plugin run it.
  offload(ofld::launch{.grid = {(pixels.size() + 255) / 256}}, histogram_global,
          pixels, global);
  double globalMs = millisecondsSince(start);
  start = std::chrono::steady_clock::now();
  offload(ofld::launch{.grid = {120}, .block = {256}}, histogram_block, pixels,
          block);
  double blockMs = millisecondsSince(start);

  unsigned wrong = 0;
  for (unsigned b = 0; b < Bins; ++b)
    wrong += (global[b] != expected[b]) + (block[b] != expected[b]);
  std::printf("histogram of %zu pixels on %d offload device(s): global "
              "atomics %.2f ms, block-shared bins %.2f ms (transfers "
              "included)\n",
              n, ofld::device_count(), globalMs, blockMs);
  std::printf("bin 20: %u, bin 200: %u; bins differing from the host: %u: %s\n",
              block[20], block[200], wrong, wrong ? "WRONG" : "ok");
  return wrong ? 1 : 0;
}
