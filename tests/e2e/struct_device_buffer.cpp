//===- struct_device_buffer.cpp - end-to-end: struct fields over device memory ===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//
//
// A struct of spans whose fields view ofld::device_buffer memory and host
// memory (issue 27: spans over device_buffer memory pass through untouched).
// The device_buffer field's span already holds a device address: the launch
// maps only the host field. Two layouts: the input on the device and the
// output on the host, then the reverse. Prints one line; exits 1 on a wrong
// element.
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <vector>

struct Axpy {
  std::span<const float> x;
  std::span<float> y;
};

[[offload::kernel]] void axpy(const Axpy &f, float a) {
  std::size_t i = ofld::global_id();
  if (i < f.y.size())
    f.y[i] += a * f.x[i];
}

int main() {
  const std::size_t n = 1024;
  std::vector<float> x(n), y(n, 1.0f), back(n);
  for (std::size_t i = 0; i < n; ++i)
    x[i] = float(i % 10);

  const ofld::launch shape{.grid = {n / 256}, .block = {256}};
  // x on the device, y on the host: y comes back, x never moves.
  ofld::device_buffer<float> dx(n);
  dx.copy_from(x);
  const Axpy on_device_x{std::span<const float>(dx), std::span<float>(y)};
  offload(shape, axpy, on_device_x, 2.0f);
  offload(shape, axpy, on_device_x, 2.0f);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i)
    wrong += y[i] != 1.0f + 4.0f * x[i];

  // x on the host, y on the device: only x goes in, nothing comes back.
  ofld::device_buffer<float> dy(n);
  dy.copy_from(std::vector<float>(n, 3.0f));
  const Axpy on_device_y{std::span<const float>(x), std::span<float>(dy)};
  offload(shape, axpy, on_device_y, 0.5f);
  ofld::wait();
  dy.copy_to(back);
  for (std::size_t i = 0; i < n; ++i)
    wrong += back[i] != 3.0f + 0.5f * x[i];

  std::printf("struct over device_buffer: %zu of %zu wrong: %s\n", wrong,
              2 * n, wrong ? "FAIL" : "ok");
  return wrong ? 1 : 0;
}
