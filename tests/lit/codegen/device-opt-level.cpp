// Device code is optimised like nvcc's: -O3 when the command line names no
// level (CMake's empty build type), the named level otherwise. Seen here in
// the host offload target's device IR: -O0 marks functions optnone, -O1
// does not vectorise, -O3 does (x86-64 SSE: <4 x float>). An -O handed to
// another tool (-Xlinker) names no level; one in a response file does.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clangxx %host-target --offload-device-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=O3
// RUN: %clangxx %host-target -Xlinker -O1 --offload-device-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=O3
// RUN: %clangxx %host-target -O0 --offload-device-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=O0
// RUN: %clangxx %host-target -O1 --offload-device-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=O1
// RUN: echo "-O0" > %t/flags.rsp
// RUN: %clangxx %host-target @%t/flags.rsp --offload-device-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=O0
// The NVIDIA device compile too: no optnone, the loop is gone.
// RUN: %if cuda %{ %clangxx %sm90 --offload-device-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NV %}

// O3: define {{.*}} @_Z4axpyfSt4spanIKfLm1024EES_IfLm1024EE({{.*}}) [[ATTR:#[0-9]+]]
// O3: <4 x float>
// O3-NOT: attributes [[ATTR]] = { {{.*}}optnone

// O0: define {{.*}} @_Z4axpyfSt4spanIKfLm1024EES_IfLm1024EE({{.*}}) [[ATTR:#[0-9]+]]
// O0: attributes [[ATTR]] = { {{.*}}optnone

// O1: define {{.*}} @_Z4axpyfSt4spanIKfLm1024EES_IfLm1024EE({{.*}}) [[ATTR:#[0-9]+]]
// O1-NOT: <4 x float>
// O1-NOT: attributes [[ATTR]] = { {{.*}}optnone

// NV: define {{.*}} @_Z4axpyfSt4spanIKfLm1024EES_IfLm1024EE({{.*}}) [[ATTR:#[0-9]+]]
// NV-NOT: attributes [[ATTR]] = { {{.*}}optnone

#include <span>

[[offload::kernel]] void axpy(float a, std::span<const float, 1024> x,
                              std::span<float, 1024> y) {
  for (int i = 0; i < 1024; ++i)
    y[i] += a * x[i];
}
