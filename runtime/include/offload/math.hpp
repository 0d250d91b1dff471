//===- offload/math.hpp - math kernels use beyond <cmath> ---*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// <cmath> in kernels is the GPU vendor's math library on GPUs (the plugin
// links CUDA's libdevice or ROCm's ocml; docs/DeviceLibrary.md has their
// accuracy) and the host's libm on CPUs. What CUDA code uses that <cmath>
// lacks is here, the same on every target:
//
//   ofld::rsqrt(x)   1/sqrt(x): the GPU's reciprocal square root (CUDA: 2 ulp
//                    float, 1 ulp double), on CPUs 1/std::sqrt(x).
//
// And one correction of libdevice, on NVIDIA GPUs: its double hypot is
// within CUDA's 2 ulp, but where the exact result is DBL_MAX or just below,
// an ulp up is infinity: hypot(DBL_MAX, 1) was inf on an H100
// (docs/DeviceLibrary.md). A result that overflowed from finite arguments
// is computed again as m * sqrt(1 + (n/m)^2) (m, n the larger and smaller
// magnitude), exact where n/m is below 2^-27 and within 2 ulp elsewhere.
// The cost outside that case is one comparison. An OpenMP variant of
// ::hypot, scored above clang's own wrapper (__clang_cuda_math.h), so that
// std::hypot and ::hypot both reach it.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_MATH_HPP
#define OFFLOAD_MATH_HPP

// Without <cmath>: every translation unit with the plugin includes this
// header. The GPU libraries' functions are declared by clang's device
// headers, which device compiles include first.
namespace ofld {

inline float rsqrt(float x) {
#if defined(__NVPTX__)
  return __nv_rsqrtf(x);
#elif defined(__AMDGPU__)
  return __ocml_rsqrt_f32(x);
#else
  return 1.0f / __builtin_sqrtf(x);
#endif
}

inline double rsqrt(double x) {
#if defined(__NVPTX__)
  return __nv_rsqrt(x);
#elif defined(__AMDGPU__)
  return __ocml_rsqrt_f64(x);
#else
  return 1.0 / __builtin_sqrt(x);
#endif
}

} // namespace ofld

#if defined(__NVPTX__)
#pragma omp begin declare variant match(                                       \
        device = {arch(nvptx64)},                                              \
            implementation = {vendor(score(100) : llvm)})
extern "C" inline double hypot(double x, double y) noexcept {
  double r = __nv_hypot(x, y);
  if (__builtin_isinf(r) && __builtin_isfinite(x) && __builtin_isfinite(y)) {
    double m = __builtin_fmax(__builtin_fabs(x), __builtin_fabs(y));
    double q = __builtin_fmin(__builtin_fabs(x), __builtin_fabs(y)) / m;
    r = m * __builtin_sqrt(__builtin_fma(q, q, 1.0));
  }
  return r;
}
#pragma omp end declare variant
#endif

#endif // OFFLOAD_MATH_HPP
