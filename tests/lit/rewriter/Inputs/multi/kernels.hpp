// Kernels declared for several translation units; defined in kernels.cpp.
#ifndef MULTI_KERNELS_HPP
#define MULTI_KERNELS_HPP

#include <offload/offload.hpp>

#include <span>

[[offload::kernel]] void axpy(float a, std::span<const float> x,
                              std::span<float> y);

[[offload::kernel]] void iota(std::span<float> v);

/// Launches axpy; defined here, so every includer sees the same call.
inline void run_axpy(float a, std::span<const float> x, std::span<float> y) {
  offload(axpy, a, x, y);
}

#endif
