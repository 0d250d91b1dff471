#include "kernels.hpp"

[[offload::kernel]] void axpy(float a, std::span<const float> x,
                              std::span<float> y) {
  std::size_t i = ofld::global_id();
  if (i < y.size())
    y[i] += a * x[i];
}

[[offload::kernel]] void iota(std::span<float> v) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] = float(i);
}

void fill_iota(std::span<float> v) { offload(iota, v); }
