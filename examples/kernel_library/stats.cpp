//===- stats.cpp - the second translation unit of the kernel library ------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "vector_ops.hpp"

#include <numeric>

double filled_and_scaled_sum(std::vector<float> &v, float value, float factor) {
  offload(vec::fill<float>, value, v);
  offload(vec::scale<float>, factor, v); // also instantiated in main.cpp
  return std::accumulate(v.begin(), v.end(), 0.0);
}
