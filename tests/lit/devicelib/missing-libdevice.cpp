// A CUDA install without libdevice: math in a kernel is one error of the
// device compile that names the functions, the target and the missing
// file, never an nvlink "Undefined reference".
// RUN: rm -rf %t && mkdir -p %t/cuda/bin %t/cuda/nvvm/libdevice
// RUN: ln -s %cuda-path/include %t/cuda/include
// RUN: ln -s %cuda-path/bin/ptxas %t/cuda/bin/ptxas
// RUN: not %clangxx -std=c++20 %plugin -fopenmp -nogpulib --offload-arch=sm_90 --cuda-path=%t/cuda -O2 --offload-device-only -S %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// REQUIRES: cuda

// CHECK: error: offload: kernel code calls math functions ('__nv_sinf', '__nv_erfcf') that need CUDA's libdevice for sm_90, which was not found: there is no {{.*}}/cuda/nvvm/libdevice/libdevice.10.bc

#include <cmath>
#include <span>

[[offload::kernel]] void waves(std::span<float> x) {
  std::size_t i = ofld::global_id();
  if (i < x.size())
    x[i] = std::sin(x[i]) + std::erfc(x[i]);
}
