//===- omp_target.cpp - an OpenMP target region linked with libofld_rt ----===//
//
// Part of the offload project's tests (tests/lit/profile/openmp.test): code
// the plugin did not lower, profiled through the runtime's
// __tgt_target_kernel. Built for sm_90 too (CI links every program for it).
//
//===----------------------------------------------------------------------===//

#include <cstdio>
int main() {
  const int n = 1000;
  float a[n];
  for (int i = 0; i < n; ++i)
    a[i] = float(i);
  for (int k = 0; k < 2; ++k) {
    // One thread (a bare region needs no OpenMP device runtime; the host
    // offload target runs its body once).
#pragma omp target teams ompx_bare num_teams(1) thread_limit(1)                \
    map(tofrom : a[0 : n])
    for (int i = 0; i < n; ++i)
      a[i] *= 2;
  }
  std::printf("a[3] = %g\n", a[3]);
}
