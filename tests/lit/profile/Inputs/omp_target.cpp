//===- omp_target.cpp - an OpenMP target region linked with libofld_rt ----===//
//
// Part of the offload project's tests (tests/lit/profile/openmp.test): code
// the plugin did not lower, profiled through the runtime's
// __tgt_target_kernel.
//
//===----------------------------------------------------------------------===//

#include <cstdio>
int main() {
  const int n = 1000;
  float a[n];
  for (int i = 0; i < n; ++i)
    a[i] = float(i);
  for (int k = 0; k < 2; ++k) {
#pragma omp target teams distribute parallel for map(tofrom : a[0 : n])
    for (int i = 0; i < n; ++i)
      a[i] *= 2;
  }
  std::printf("a[3] = %g\n", a[3]);
}
