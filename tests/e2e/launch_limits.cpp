//===- launch_limits.cpp - end-to-end: launch shapes the device cannot run ===//
//
// Part of the offload project's tests. Each launch limit gives an error that
// names the kernel, its call site, the limit and its value, before anything
// runs; a zero grid or block component launches nothing; dim3 takes any
// integer (a size_t, an int: no narrowing error) and keeps values that do not
// fit 32 bits, or are negative, so that they are reported, not wrapped. The host target and the CPU fallback
// enforce the limits of NVIDIA GPUs (the same numbers as an H100 or H200).
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp> // optional with the plugin

#include <cstddef>
#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void count(std::span<int> calls) {
  if (ofld::global_id() == 0)
    calls[0] += 1;
}

static int errors = 0;

int main() {
  ofld::set_error_handler([](const char *message) {
    ++errors;
    std::printf("error: %s\n", message);
  });
  std::vector<int> calls(1, 0);
  // Values computed at run time (the plugin rejects constant blocks of more
  // than 1024 threads for GPU targets at compile time).
  std::size_t n = 1 << 20, b2048 = 2048, g70000 = 70000, g65536 = 65536,
              b128 = 128, b32 = 32;

  offload(ofld::launch{.grid = {n / 256}}, count, calls); // size_t: fine
  offload(ofld::launch{.grid = {1}, .block = {b2048}}, count, calls);
  offload(ofld::launch{.grid = {1, g70000}}, count, calls);
  offload(ofld::launch{.grid = {1, 1, g65536}}, count, calls);
  offload(ofld::launch{.grid = {1}, .block = {4, 4, b128}}, count, calls);
  offload(ofld::launch{.grid = {1}, .block = {64, b32}}, count, calls);
  offload(ofld::launch{.grid = {n << 12}}, count, calls);
  // Any integer, as CUDA code computes its shapes: ints and other widths
  // launch with no cast; a negative one is the named error, not a wrap.
  int blocks = int(n / 256) / 2, threads = 512, minus = -3;
  offload(ofld::launch{.grid = {blocks}, .block = {threads}}, count, calls);
  offload(ofld::launch{.grid = {minus}}, count, calls);
  short sx = 2;
  long long ly = 1;
  unsigned char uz = 1;
  offload(ofld::launch{.grid = {sx, ly, uz}, .block = {threads}}, count, calls);

  // Zero components: nothing runs, nothing is reported.
  std::size_t none = 0;
  offload(ofld::launch{.grid = {none / 256}}, count, calls);
  offload(ofld::launch{.grid = {4, none}}, count, calls);
  offload(ofld::launch{.grid = {4}, .block = {32, 1, none}}, count, calls);
  ofld::wait();

  bool ok = calls[0] == 3 && errors == 7;
  std::printf("calls = %d, errors = %d: %s\n", calls[0], errors,
              ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
