//===- vector_ops.hpp - a header library of kernel templates --*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Kernels as templates in a header, like any header library: every
// translation unit that launches one instantiates it, and the linker keeps
// one copy of each instance, on the host and in the device image alike.
//
//===----------------------------------------------------------------------===//

#ifndef VECTOR_OPS_HPP
#define VECTOR_OPS_HPP

#include <offload/offload.hpp>

#include <span>
#include <vector>

namespace vec {

template <class T>
[[offload::kernel]] void fill(T value, [[offload::out]] std::span<T> v) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] = value;
}

template <class T> [[offload::kernel]] void scale(T factor, std::span<T> v) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] *= factor;
}

template <class T>
[[offload::kernel]] void axpy(T a, std::span<const T> x, std::span<T> y) {
  std::size_t i = ofld::global_id();
  if (i < y.size())
    y[i] += a * x[i];
}

} // namespace vec

/// In stats.cpp: fills `v` with `value`, scales it by `factor` (through the
/// same vec::scale<float> instance main.cpp launches) and returns the sum.
double filled_and_scaled_sum(std::vector<float> &v, float value, float factor);

#endif // VECTOR_OPS_HPP
