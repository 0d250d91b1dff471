// The README example: a plain kernel and a template kernel, launched with the
// default shape and with an explicit ofld::launch.
#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void saxpy(float a, std::span<const float> x,
                               std::span<float> y) {
  std::size_t i = ofld::global_id();
  if (i < y.size())
    y[i] = a * x[i] + y[i];
}

template <class T>
[[offload::kernel]] void scale(T factor, std::span<T> v) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] *= factor;
}

int main() {
  std::vector<float> x(1 << 20, 1.0f), y(1 << 20, 2.0f);
  offload(saxpy, 2.0f, x, y); // y = 2 * 1 + 2
  offload(ofld::launch{.grid = {4096}, .block = {256}}, scale<float>, 0.5f, y);
  double sum = 0;
  for (float v : y)
    sum += v;
  std::printf("y[0]=%g y[last]=%g sum=%.0f\n", y[0], y.back(), sum);
}
