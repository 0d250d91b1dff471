//===- region_constness.cpp - end-to-end: writes into a const region entry ===//
//
// Part of the offload project's tests. A region maps v to the device only
// (std::span<const T>) and a kernel writes it through a std::span<T>
// parameter. Every path ends the same way: the region copies what was
// written back at its end (on the CPU the kernel writes v itself). In the
// first case the launch is in another function than the region, so the
// plugin cannot see both: the runtime warns, once per call site. In the
// second the plugin warns at compile time, and the runtime does not.
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp> // optional with the plugin

#include "expect.h"

#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void set_one(std::span<float> v) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] = 1.0f;
}

[[gnu::noinline]] static void update(std::vector<float> &v) {
  for (int k = 0; k < 3; ++k)
    offload(set_one, v);
}

int main() {
  std::vector<float> v(1000, 0.0f);
  {
    ofld::region r{std::span<const float>(v)};
    update(v);
  }
  // Every element written on the device comes back at the region's end.
  bool ok = e2e::mismatches("v", v, std::vector<float>(v.size(), 1.0f)) == 0;
  std::vector<float> w(10, 0.0f);
  {
    ofld::region r{std::span<const float>(w)};
    offload(set_one, w); // the plugin warns here
  }
  ok &= e2e::mismatches("w", w, std::vector<float>(w.size(), 1.0f)) == 0;
  std::printf("const region entry written: v[0] = %.1f, w[9] = %.1f: %s\n",
              v[0], w[9], ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
