//===- multi_device.cpp - end-to-end: independent kernels on each device -===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void stamp(int device, std::span<int> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = device * 1000 + int(i % 10);
}

int main() {
  int devices = ofld::device_count();
  if (devices < 1) {
    std::printf("no offload device\n");
    return 1;
  }
  // One buffer per device, all launched without waiting so they overlap.
  std::vector<std::vector<int>> parts(devices, std::vector<int>(1 << 20, -1));
  for (int d = 0; d < devices; ++d)
    offload(ofld::launch{.device = d, .nowait = true}, stamp, d, parts[d]);
  ofld::wait();
  bool ok = true;
  for (int d = 0; d < devices; ++d)
    ok &= parts[d][0] == d * 1000 && parts[d][12345] == d * 1000 + 5;
  // The default device follows set_default_device.
  ofld::set_default_device(devices - 1);
  std::vector<int> last(10, -1);
  offload(stamp, devices - 1, last);
  ok &= last[9] == (devices - 1) * 1000 + 9;
  std::printf("%d device(s): %s\n", devices, ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
