// What libdevice computes for sm_90 follows nvcc's defaults, and the one
// correction of it the plugin's header makes is there:
//  * sqrtf is correctly rounded (libdevice asks __CUDA_PREC_SQRT, which the
//    plugin answers 1 as nvcc's -prec-sqrt=true does; 0 would give
//    sqrt.approx) and denormals are kept (__CUDA_FTZ 0: no .ftz);
//  * double hypot: libdevice's result can round past DBL_MAX (hypot(DBL_MAX,
//    1) was inf on an H100); offload/math.hpp recomputes a result that
//    overflowed from finite arguments with a correctly rounded sqrt.rn.f64,
//    which libdevice's hypot itself never uses (it refines an rsqrt).
//    std::hypot and ::hypot both reach it; float hypot stays libdevice's.
// The results themselves are checked on the GPU (tests/e2e/device_math.cpp,
// edge cases DBL_MAX and -DBL_MAX against 1, -1, 2.5, -3).
// RUN: %clangxx %sm90 -O2 --offload-device-only -S %s -o - | FileCheck %s
// REQUIRES: cuda

// CHECK-LABEL: .entry {{.*}}roots
// CHECK-NOT: sqrt.approx
// CHECK-NOT: .ftz
// CHECK: sqrt.rn.f32
// CHECK-NOT: sqrt.approx
// CHECK-NOT: .ftz
// CHECK: ret;

// CHECK-LABEL: .entry {{.*}}lengths
// CHECK: sqrt.rn.f64
// CHECK: sqrt.rn.f64
// CHECK: ret;

// CHECK-LABEL: .entry {{.*}}lengths_f
// CHECK-NOT: sqrt.rn.f64
// CHECK: ret;

#include <cmath>
#include <math.h>
#include <span>

[[offload::kernel]] void roots(std::span<float> x) {
  std::size_t i = ofld::global_id();
  if (i < x.size())
    x[i] = std::sqrt(x[i]);
}

[[offload::kernel]] void lengths(std::span<const double> x,
                                 std::span<double> y) {
  std::size_t i = ofld::global_id();
  if (i < x.size())
    y[i] = std::hypot(x[i], 1.0) + ::hypot(x[i], 2.0);
}

[[offload::kernel]] void lengths_f(std::span<const float> x,
                                   std::span<float> y) {
  std::size_t i = ofld::global_id();
  if (i < x.size())
    y[i] = std::hypot(x[i], 1.0f);
}
