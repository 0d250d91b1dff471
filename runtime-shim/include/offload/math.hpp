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

#endif // OFFLOAD_MATH_HPP
