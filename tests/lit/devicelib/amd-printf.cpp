// AMD GPUs have no device output (no hostcall service in libomptarget, no GPU
// C library in Debian's LLVM): printf in a kernel compiled for gfx90a is a
// compile-time error at the call, with or without -g (GPU device compiles
// track locations for their diagnostics), never lld's "undefined symbol:
// printf". The other targets print.
// RUN: not %clangxx -std=c++20 %plugin -fopenmp -nogpulib --offload-arch=gfx90a -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LINE --implicit-check-not=error:
// RUN: not %clangxx -std=c++20 %plugin -fopenmp -nogpulib --offload-arch=gfx90a -O0 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LINE --implicit-check-not=error:
// RUN: %clangxx %host-target -O2 -c %s -o /dev/null
// RUN: %if cuda %{ %clangxx %sm90 -O2 -c %s -o /dev/null %}

#include <cstdio>
#include <span>

[[offload::kernel]] void hello(std::span<const int> v) {
  if (ofld::global_id() == 0)
    // LINE: amd-printf.cpp:[[@LINE+1]]:5: error: offload: 'printf' is not available in kernels compiled for gfx90a: AMD GPUs have no device output (guard the call with #ifndef __AMDGPU__)
    printf("first %d\n", v[0]);
}
