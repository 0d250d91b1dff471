//===- devices.cpp - which device a launch picks in a multi-image binary --===//
//
// Part of the offload project's tests. Prints libomptarget's devices (their
// UIDs name the plugin), ofld::device_count() and where launches run
// (LIBOMPTARGET_INFO=-1 shows the device numbers).
//   devices            launches on the default device
//   devices N          after ofld::set_default_device(N)
//   devices each       on every offload device in turn (.device = d)
//
//===----------------------------------------------------------------------===//

#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

[[offload::kernel]] void iota(int base, std::span<int> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = base + int(i);
}

int main(int argc, char **argv) {
  int all = omp_get_num_devices();
  std::printf("libomptarget devices: %d\n", all);
  for (int d = 0; d < all; ++d)
    std::printf("  %d: %s\n", d, omp_get_uid_from_device(d));
  std::printf("offload devices: %d\n", ofld::device_count());
  std::fflush(stdout);
  std::vector<int> v(1000, -1);
  bool ok = true;
  if (argc > 1 && !std::strcmp(argv[1], "each")) {
    for (int d = 0; d < ofld::device_count(); ++d) {
      offload(ofld::launch{.device = d}, iota, d, v);
      for (int i = 0; i < 1000; ++i)
        ok &= v[i] == d + i;
    }
  } else {
    if (argc > 1)
      ofld::set_default_device(std::atoi(argv[1]));
    offload(iota, 5, v);
    for (int i = 0; i < 1000; ++i)
      ok &= v[i] == 5 + i;
  }
  std::printf("%s\n", ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
