// Kernels declared for several translation units; defined in kernels.cpp.
#ifndef MULTI_KERNELS_HPP
#define MULTI_KERNELS_HPP

#include <offload/offload.hpp>

#include <span>

[[offload::kernel]] void axpy(float a, std::span<const float> x,
                              std::span<float> y);

[[offload::kernel]] void iota(std::span<float> v);

/// Launches axpy; defined here, so every includer sees the same call. The
/// rewrite cannot read axpy's bounds check here (kernels.cpp defines it,
/// after this header): the launch gives its grid.
inline void run_axpy(float a, std::span<const float> x, std::span<float> y) {
  offload(ofld::launch{.grid = {4}, .block = {256}}, axpy, a, x, y);
}

/// The same launch without a grid: refused when it runs after the rewrite
/// (the plugin's build computes the bound in kernels.cpp). Never called.
inline void run_axpy_default(float a, std::span<const float> x,
                             std::span<float> y) {
  offload(axpy, a, x, y);
}

#endif
