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
// CUDA's fast intrinsics, by CUDA's names, so ported kernels compile as they
// are: __expf __exp10f __logf __log2f __log10f __powf __sinf __cosf __tanf
// __sincosf __fdividef __saturatef, and rsqrtf rsqrt rcbrtf rcbrt. On NVIDIA
// GPUs they are libdevice's fast versions (the approximate PTX instructions
// nvcc emits); on AMD GPUs HIP's; on CPUs, where no fast version exists, the
// accurate function (libm). They have C linkage: glibc's <math.h> declares
// __expf & co. (libm defines none of them), and these are their definitions.
// The GPU math headers' own definitions, where clang includes them, are the
// same functions. docs/DeviceLibrary.md has their accuracy and -ffast-math.
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

// -ffast-math in kernels as nvcc's -use_fast_math: clang's GPU math headers
// pick the approximate sinf, cosf, logf, log2f, sincosf under this macro,
// which clang defines for CUDA and HIP compiles only. Every translation unit
// with the plugin includes this header before the user's <cmath>.
#if defined(__FAST_MATH__) && (defined(__NVPTX__) || defined(__AMDGPU__)) &&   \
    !defined(__CLANG_GPU_APPROX_TRANSCENDENTALS__)
#define __CLANG_GPU_APPROX_TRANSCENDENTALS__ 1
#endif

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

// One definition per intrinsic, its three spellings side by side.
#if defined(__NVPTX__)
#define OFFLOAD_FAST_(NVIDIA, AMD, CPU) NVIDIA
#elif defined(__AMDGPU__)
#define OFFLOAD_FAST_(NVIDIA, AMD, CPU) AMD
#else
#define OFFLOAD_FAST_(NVIDIA, AMD, CPU) CPU
#endif

extern "C" {
inline float __expf(float x) noexcept {
  return OFFLOAD_FAST_(__nv_fast_expf(x),
                       __builtin_amdgcn_exp2f(0x1.715476p+0f * x),
                       __builtin_expf(x));
}
inline float __exp10f(float x) noexcept {
  return OFFLOAD_FAST_(__nv_fast_exp10f(x),
                       __builtin_amdgcn_exp2f(0x1.a934f0p+1f * x),
                       __builtin_exp10f(x));
}
inline float __logf(float x) noexcept {
  return OFFLOAD_FAST_(__nv_fast_logf(x), __builtin_logf(x), __builtin_logf(x));
}
inline float __log2f(float x) noexcept {
  return OFFLOAD_FAST_(__nv_fast_log2f(x), __builtin_amdgcn_logf(x),
                       __builtin_log2f(x));
}
inline float __log10f(float x) noexcept {
  return OFFLOAD_FAST_(__nv_fast_log10f(x), __builtin_log10f(x),
                       __builtin_log10f(x));
}
inline float __powf(float x, float y) noexcept {
  return OFFLOAD_FAST_(__nv_fast_powf(x, y), __ocml_pow_f32(x, y),
                       __builtin_powf(x, y));
}
inline float __sinf(float x) noexcept {
  return OFFLOAD_FAST_(__nv_fast_sinf(x), __ocml_native_sin_f32(x),
                       __builtin_sinf(x));
}
inline float __cosf(float x) noexcept {
  return OFFLOAD_FAST_(__nv_fast_cosf(x), __ocml_native_cos_f32(x),
                       __builtin_cosf(x));
}
inline float __tanf(float x) noexcept {
  return OFFLOAD_FAST_(__nv_fast_tanf(x),
                       __sinf(x) * __builtin_amdgcn_rcpf(__cosf(x)),
                       __builtin_tanf(x));
}
inline void __sincosf(float x, float *s, float *c) noexcept {
  *s = __sinf(x);
  *c = __cosf(x);
}
inline float __fdividef(float x, float y) noexcept {
  return OFFLOAD_FAST_(__nv_fast_fdividef(x, y), x / y, x / y);
}
inline float __saturatef(float x) noexcept {
  // NaN and -0 give +0, as CUDA's.
  return OFFLOAD_FAST_(__nv_saturatef(x),
                       !(x > 0.0f) ? 0.0f : __builtin_fminf(x, 1.0f),
                       !(x > 0.0f) ? 0.0f : __builtin_fminf(x, 1.0f));
}
inline float rsqrtf(float x) noexcept { return ofld::rsqrt(x); }
inline double rsqrt(double x) noexcept { return ofld::rsqrt(x); }
inline float rcbrtf(float x) noexcept {
  return OFFLOAD_FAST_(__nv_rcbrtf(x), __ocml_rcbrt_f32(x),
                       1.0f / __builtin_cbrtf(x));
}
inline double rcbrt(double x) noexcept {
  return OFFLOAD_FAST_(__nv_rcbrt(x), __ocml_rcbrt_f64(x),
                       1.0 / __builtin_cbrt(x));
}
}

#undef OFFLOAD_FAST_

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
