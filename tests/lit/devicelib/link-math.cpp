// Kernels that call <cmath> link on every target with the plugin's own
// flags, no -Xoffload-linker: the plugin links CUDA's libdevice (sm_90) and
// ROCm's ocml/ockl (gfx90a, gfx942) into the device module before it is
// optimised, so nothing of them is left undefined and libdevice's reflect
// queries are folded (no __nvvm_reflect reaches ptxas).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clangxx %sm90 -O2 --offload-device-only -S -emit-llvm %s -o %t/sm90.ll
// RUN: FileCheck %s --check-prefix=NV < %t/sm90.ll
// RUN: %clangxx %sm90 -O2 %s -o %t/sm90 %link-rt
// RUN: %clangxx %plugin -std=c++20 -fopenmp -nogpulib --offload-arch=gfx90a -O2 --offload-device-only -S -emit-llvm %s -o %t/gfx90a.ll
// RUN: FileCheck %s --check-prefix=AMD < %t/gfx90a.ll
// RUN: %clangxx %plugin -std=c++20 -fopenmp -nogpulib --offload-arch=gfx942 -O2 --offload-device-only -S -emit-llvm %s -o %t/gfx942.ll
// RUN: FileCheck %s --check-prefixes=AMD < %t/gfx942.ll
// RUN: %clangxx %plugin -std=c++20 -fopenmp -nogpulib --offload-arch=gfx90a,gfx942 -O2 %s -o %t/amd %link-rt
// RUN: %clangxx %host-target -O2 %s -o %t/host %link-rt
// RUN: %t/host | FileCheck %s --check-prefix=OUT
// REQUIRES: cuda

// NV-NOT: declare {{.*}}@__nv_
// NV-NOT: __nvvm_reflect
// NV: define {{.*}}ptx_kernel void @__ofld_{{.*}}5waves
// NV-NOT: declare {{.*}}@__nv_
// NV-NOT: __nvvm_reflect

// AMD-NOT: declare {{.*}}@__ocml_
// AMD-NOT: declare {{.*}}@__ockl_
// AMD-NOT: declare {{.*}}@__oclc_
// AMD: define {{.*}}amdgpu_kernel void @__ofld_{{.*}}5waves
// AMD-NOT: declare {{.*}}@__ocml_
// AMD-NOT: declare {{.*}}@__oclc_

// OUT: {{^}}ok 0.841471 1.000000 0.540302

#include <cmath>
#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void waves(std::span<const float> x, std::span<double> y,
                               std::span<float> z) {
  std::size_t i = ofld::global_id();
  if (i < x.size()) {
    z[i] = std::sin(x[i]) + std::exp(-x[i] * x[i]) * std::erfc(x[i]);
    y[i] = std::cos(double(x[i]));
  }
}

int main() {
  std::vector<float> x{1.0f}, z(1);
  std::vector<double> y(1);
  offload(waves, x, y, z);
  float want = std::sin(1.0f) + std::exp(-1.0f) * std::erfc(1.0f);
  std::printf("%s %f %f %f\n", std::fabs(z[0] - want) < 1e-5f ? "ok" : "BAD",
              std::sin(1.0), z[0] / want, y[0]);
}
