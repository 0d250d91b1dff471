//===- device_properties.cpp - end-to-end: ofld::properties ---------------===//
//
// Part of the offload project's tests. What a port reads from
// cudaGetDeviceProperties and cudaMemGetInfo, for every device and the
// default one: the values that depend on the machine are printed and
// checked for sense (a name, memory, free memory no more than the total);
// the ones the path fixes are printed exactly (the architecture's kind, the
// warp size, the limits). A device number that names no device is a named
// error. A launch after the questions runs as usual.
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp> // optional with the plugin
#include <offload/properties.hpp>

#include <cstdio>
#include <cstring>
#include <string>

[[offload::kernel]] void probe(int &x) { x = 42; }

static int handled = 0;

static bool sane(const char *what, const ofld::device_properties &p) {
  bool ok = !p.name.empty() && !p.arch.empty() && p.multiprocessors > 0 &&
            p.global_memory > 0 && p.free_memory <= p.global_memory &&
            p.max_threads_per_block > 0 && p.max_grid[0] > 0 &&
            p.max_block[0] > 0 && p.shared_memory_per_block > 0 &&
            p.warp_size > 0;
  // The kind of device, and what that fixes.
  const char *kind = p.arch.rfind("sm_", 0) == 0    ? "NVIDIA GPU"
                     : p.arch.rfind("gfx", 0) == 0 ? "AMD GPU"
                                                    : "CPU";
  std::printf("%s: a %s, warp of %d, blocks of up to %d threads "
              "(%llux%llux%llu), grids of up to %llux%llux%llu, %zu bytes "
              "of shared memory per block\n",
              what, kind, p.warp_size, p.max_threads_per_block,
              (unsigned long long)p.max_block[0],
              (unsigned long long)p.max_block[1],
              (unsigned long long)p.max_block[2],
              (unsigned long long)p.max_grid[0],
              (unsigned long long)p.max_grid[1],
              (unsigned long long)p.max_grid[2], p.shared_memory_per_block);
  // Machine-dependent: on stderr, for people.
  std::fprintf(stderr,
               "%s: %s (%s), %d multiprocessors, %zu bytes, %zu free, "
               "%d kHz\n",
               what, p.name.c_str(), p.arch.c_str(), p.multiprocessors,
               p.global_memory, p.free_memory, p.clock_khz);
  if (!ok)
    std::printf("FAIL: %s: properties out of range\n", what);
  return ok;
}

int main() {
  bool ok = true;
  int count = ofld::device_count();
  ok &= sane("default device", ofld::properties());
  for (int d = 0; d < count; ++d) {
    char what[32];
    std::snprintf(what, sizeof(what), "device %d", d);
    ok &= sane(what, ofld::properties(d));
  }
  // The message without the device count, which differs between builds.
  ofld::set_error_handler([](const char *message) {
    ++handled;
    std::printf("error: %.*s\n", int(std::strcspn(message, "(")), message);
  });
  ofld::device_properties none = ofld::properties(1000);
  ofld::set_error_handler(nullptr);
  ok &= handled == 1 && none.name.empty() && none.global_memory == 0;
  // The device still runs kernels after the questions.
  int x = 0;
  offload(ofld::launch{.grid = {1}, .block = {1}}, probe, x);
  ok &= x == 42;
  std::printf("device properties: %s\n", ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
