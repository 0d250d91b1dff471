//===- multi_device.cpp - end-to-end: independent kernels on each device -===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//

#include "expect.h"

#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void stamp(int device, std::span<int> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = device * 1000 + int(i % 10);
}

static std::vector<int> expected(int device, std::size_t n) {
  std::vector<int> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = device * 1000 + int(i % 10);
  return v;
}

int main() {
  int devices = ofld::device_count();
  if (devices < 1) {
    std::printf("FAIL: no offload device\n");
    return 1;
  }
  // One buffer per device, all launched without waiting so they overlap.
  constexpr std::size_t N = (1 << 20) + 3;
  std::vector<std::vector<int>> parts(devices, std::vector<int>(N, -1));
  for (int d = 0; d < devices; ++d)
    offload(ofld::launch{.device = d, .nowait = true}, stamp, d, parts[d]);
  ofld::wait();
  bool ok = true;
  for (int d = 0; d < devices; ++d)
    ok &= e2e::mismatches("part", parts[d], expected(d, N)) == 0;
  // The default device follows set_default_device.
  ofld::set_default_device(devices - 1);
  std::vector<int> last(10, -1);
  offload(stamp, devices - 1, last);
  ok &= e2e::mismatches("last", last, expected(devices - 1, 10)) == 0;
  std::printf("%d device(s): %s\n", devices, ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
