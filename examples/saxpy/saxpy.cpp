//===- saxpy.cpp - the offload example: saxpy and a template kernel -------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// One attribute marks a kernel, one call launches it; what moves between
// host and device follows from the parameter types: `x` is only read
// (std::span<const float>: copied in), `y` is read and written (copied in
// and back). Run with LIBOMPTARGET_INFO=-1 to watch the transfers.
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp>

#include <algorithm>
#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void saxpy(float a, std::span<const float> x,
                               std::span<float> y) {
  std::size_t i = ofld::global_id(); // x-dimension global thread index
  if (i < y.size())
    y[i] = a * x[i] + y[i];
}

template <class T> [[offload::kernel]] void scale(T factor, std::span<T> v) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] *= factor;
}

int main() {
  std::vector<float> x(1 << 20, 1.0f), y(1 << 20, 2.0f);
  offload(saxpy, 2.0f, x, y); // default shape: one thread per element of x
  offload(ofld::launch{.grid = {4096}, .block = {256}}, scale<float>, 0.5f, y);
  // Every element: (2 * 1 + 2) * 0.5.
  bool ok = std::all_of(y.begin(), y.end(), [](float v) { return v == 2.0f; });
  std::printf("saxpy on %d offload device(s): y[7] = %.1f (expected 2.0): %s\n",
              ofld::device_count(), y[7], ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
