//===- bad_device.cpp - runtime faults: launches on devices that do not exist ===//
//
// Part of the offload project's tests. argv[1]: 0 = ofld::launch{.device = 99},
// 1 = ofld::set_default_device(99), 2 = case 0 with an error handler,
// 3 = the default device (OMP_DEFAULT_DEVICE in the tests).
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

[[offload::kernel]] void inc(std::span<int> v) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] += 1;
}

int main(int argc, char **argv) {
  int c = argc > 1 ? std::atoi(argv[1]) : 0;
  std::vector<int> v(100, 1);
  if (c == 2)
    ofld::set_error_handler(
        [](const char *m) { std::printf("handled: %s\n", m); });
  if (c == 1) {
    ofld::set_default_device(99);
    offload(inc, v);
  } else if (c == 3) {
    offload(inc, v);
  } else {
    offload(ofld::launch{.device = 99}, inc, v);
  }
  bool ok = true;
  for (int x : v)
    ok &= x == 2;
  std::printf("v[0] = %d: %s\n", v[0], ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
