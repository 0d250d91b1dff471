//===- dynamic_shared.cpp - end-to-end: dynamic shared memory -------------===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//
//
// ofld::launch{.shared_bytes = n} and ofld::dynamic_shared<T>(), as CUDA
// code uses `extern __shared__` and the launch's third parameter: a block
// reduction whose scratch is sized by a block chosen at run time (also a
// launch that does not wait); a 64 KiB tile per block, more than CUDA gives
// a kernel that does not opt in (the runtime does it for the program), on
// copied data (libomptarget's launch) and on a region's (the runtime's own
// stream launch); the span's size for several T; and a launch asking for
// more than the device allows (the CPU: 227 KiB, as an H100 or H200), an
// error naming the kernel and its call site before anything runs.
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp>

#include <cstddef>
#include <cstdio>
#include <span>
#include <vector>

// One partial sum per block: each thread loads one element into the
// block's scratch of block_dim() floats, then a tree over them.
[[offload::kernel]] void block_sums(std::span<const float> x,
                                    [[offload::out]] std::span<float> sums) {
  std::span<float> s = ofld::dynamic_shared<float>();
  unsigned t = ofld::thread_id();
  std::size_t i = ofld::global_id();
  s[t] = i < x.size() ? x[i] : 0.0f;
  ofld::sync_threads();
  for (unsigned half = ofld::block_dim() / 2; half > 0; half /= 2) {
    if (t < half)
      s[t] += s[t + half];
    ofld::sync_threads();
  }
  if (t == 0)
    sums[ofld::block_id()] = s[0];
}

// Each block reverses its segment of dynamic_shared<float>().size()
// elements through the tile: every element crosses from one thread to
// another, and every byte of the tile is used.
[[offload::kernel]] void reverse(std::span<const float> in,
                                 [[offload::out]] std::span<float> out) {
  std::span<float> tile = ofld::dynamic_shared<float>();
  std::size_t n = tile.size(), base = std::size_t(ofld::block_id()) * n;
  for (std::size_t i = ofld::thread_id(); i < n; i += ofld::block_dim())
    tile[i] = in[base + i];
  ofld::sync_threads();
  for (std::size_t i = ofld::thread_id(); i < n; i += ofld::block_dim())
    out[base + i] = tile[n - 1 - i];
}

// The span's size for three element types, and whether they are one memory.
[[offload::kernel]] void sizes([[offload::out]] std::span<long long> out) {
  if (ofld::global_id() != 0)
    return;
  out[0] = (long long)ofld::dynamic_shared<char>().size();
  out[1] = (long long)ofld::dynamic_shared<float>().size();
  out[2] = (long long)ofld::dynamic_shared<double>().size();
  out[3] = static_cast<void *>(ofld::dynamic_shared<char>().data()) ==
           static_cast<void *>(ofld::dynamic_shared<double>().data());
}

static int errors = 0;

static bool check_sums(std::size_t threads, bool nowait) {
  const std::size_t n = 100000, blocks = (n + threads - 1) / threads;
  std::vector<float> x(n), sums(blocks, -1.0f);
  double expected = 0;
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = float(i % 7) * 0.5f;
    expected += x[i];
  }
  offload(ofld::launch{.grid = {blocks},
                       .block = {threads},
                       .shared_bytes = threads * sizeof(float),
                       .nowait = nowait},
          block_sums, x, sums);
  if (nowait)
    ofld::wait();
  double total = 0;
  for (float s : sums)
    total += s;
  bool ok = total == expected;
  std::printf("block sums, %zu threads%s: total %.1f (expected %.1f): %s\n",
              threads, nowait ? ", nowait" : "", total, expected,
              ok ? "ok" : "FAIL");
  return ok;
}

static bool reversed(const std::vector<float> &in,
                     const std::vector<float> &out, std::size_t n) {
  for (std::size_t i = 0; i < in.size(); ++i)
    if (out[i] != in[i / n * n + (n - 1 - i % n)])
      return false;
  return true;
}

int main() {
  ofld::set_error_handler([](const char *message) {
    ++errors;
    std::printf("error: %s\n", message);
  });
  bool ok = check_sums(128, false);
  ok &= check_sums(1024, true);

  // 64 KiB a block: above CUDA's 48 KiB default.
  const std::size_t tile_bytes = 64 * 1024, n = tile_bytes / sizeof(float),
                    blocks = 4;
  std::vector<float> in(n * blocks), out(n * blocks, -1.0f);
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = float(i);
  offload(ofld::launch{.grid = {blocks},
                       .block = {256},
                       .shared_bytes = tile_bytes},
          reverse, in, out);
  bool copied = reversed(in, out, n);
  std::printf("reverse through %zu bytes of shared memory a block: %s\n",
              tile_bytes, copied ? "ok" : "FAIL");
  std::vector<float> held(n * blocks, -1.0f);
  {
    ofld::region r{std::span<const float>(in),
                   ofld::out(std::span<float>(held))};
    offload(ofld::launch{.grid = {blocks},
                         .block = {256},
                         .shared_bytes = tile_bytes},
            reverse, in, held);
  }
  bool resident = reversed(in, held, n);
  std::printf("the same on a region's data: %s\n", resident ? "ok" : "FAIL");
  ok &= copied && resident;

  std::vector<long long> sz(4, -1);
  offload(ofld::launch{.grid = {1}, .block = {32}, .shared_bytes = 1001},
          sizes, sz);
  bool sized = sz[0] == 1001 && sz[1] == 250 && sz[2] == 125 && sz[3] == 1;
  std::printf("1001 bytes: %lld char, %lld float, %lld double, one memory: "
              "%s\n",
              sz[0], sz[1], sz[2], sized ? "ok" : "FAIL");
  offload(ofld::launch{.grid = {1}, .block = {32}}, sizes, sz);
  bool none = sz[0] == 0 && sz[1] == 0 && sz[2] == 0;
  std::printf("no shared_bytes: %lld char, %lld float, %lld double: %s\n",
              sz[0], sz[1], sz[2], none ? "ok" : "FAIL");
  ok &= sized && none;

  // More than any device allows: the named error, and nothing runs.
  std::size_t huge = std::size_t(1) << 20;
  std::vector<float> untouched(n * blocks, -1.0f);
  offload(ofld::launch{.grid = {blocks}, .block = {256}, .shared_bytes = huge},
          reverse, in, untouched);
  bool ran = false;
  for (float v : untouched)
    ran |= v != -1.0f;
  std::printf("too much: nothing ran: %s\n", ran ? "FAIL" : "ok");
  ok &= !ran && errors == 1;
  std::printf("errors = %d: %s\n", errors, ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
