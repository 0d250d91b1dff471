// printf in kernels on every target. AMD GPUs have no device output of their
// own here (no hostcall service in libomptarget 22, no GPU C library in
// Debian's LLVM): printf appends records to the device's printf buffer
// (offload/device_libc.hpp), which the runtime prints when the kernel ends;
// the plugin points the calls at the buffered function. NVIDIA GPUs use CUDA's vprintf, or the buffer
// with -DOFFLOAD_BUFFERED_PRINTF. The host offload target uses the host's
// printf. Every build below links.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clangxx %plugin -std=c++20 -fopenmp -nogpulib --offload-arch=gfx90a -O2 --offload-device-only -S -emit-llvm %s -o %t/gfx90a.ll
// RUN: FileCheck %s --check-prefix=AMD < %t/gfx90a.ll
// RUN: %clangxx %plugin -std=c++20 -fopenmp -nogpulib --offload-arch=gfx90a -O0 --offload-device-only -S -emit-llvm %s -o %t/gfx90a-O0.ll
// RUN: FileCheck %s --check-prefix=AMD < %t/gfx90a-O0.ll
// RUN: %clangxx %plugin -std=c++20 -fopenmp -nogpulib --offload-arch=gfx90a,gfx942 -O2 %s -o %t/amd %link-rt
// RUN: llvm-objdump --offloading %t/amd | FileCheck %s --check-prefix=IMAGES
// RUN: cd %t && clang-offload-packager --image=file=gfx90a.o,arch=gfx90a %t/amd
// RUN: llvm-readelf --symbols %t/gfx90a.o | FileCheck %s --check-prefix=AMD-ELF
// RUN: %clangxx %sm90 -O2 --offload-device-only -S -emit-llvm %s -o %t/sm90.ll
// RUN: FileCheck %s --check-prefix=NV < %t/sm90.ll
// RUN: %clangxx %sm90 -DOFFLOAD_BUFFERED_PRINTF -O2 --offload-device-only -S -emit-llvm %s -o %t/sm90-buffered.ll
// RUN: FileCheck %s --check-prefix=NV-BUFFERED < %t/sm90-buffered.ll
// RUN: %clangxx %sm90 -DOFFLOAD_BUFFERED_PRINTF -O2 %s -o %t/sm90-buffered %link-rt
// RUN: %clangxx %host-target -O2 %s -o %t/host %link-rt
// RUN: %t/host | FileCheck %s --check-prefix=OUT
// REQUIRES: cuda

#include <cstdio>
#include <span>

void say(const char *s, double d) { printf("from a helper: %s %.1f\n", s, d); }

[[offload::kernel]] void hello(std::span<const int> v) {
  if (ofld::global_id() == 0) {
    printf("first %d of %zu\n", v[0], v.size());
    say("text", 2.5);
  }
}

int main() {
  int v[] = {7, 8, 9};
  offload(hello, std::span<const int>(v));
}

// The C functions are gone; each call goes to the buffered one, which
// appends to the buffer (a declare-target global, 1 MiB by default).
// AMD-NOT: {{(call|declare).*}} @printf(
// AMD-NOT: {{(call|declare).*}} @vprintf(
// AMD-NOT: @vfprintf
// AMD-DAG: @__ofld_printf_buffer = {{.*}} global %"struct.ofld::detail::printf_record::buffer" zeroinitializer
// AMD-DAG: %"struct.ofld::detail::printf_record::buffer" = type { i64, i64, ptr, i64, [1048576 x i8] }
// AMD-DAG: define {{.*}}i32 @__ofld_printf(ptr {{.*}}, ...)
// AMD-DAG: call {{.*}} @__ofld_printf(ptr {{.*}}, i32 {{.*}}, i64 {{.*}})
// AMD-DAG: atomicrmw add {{.*}}@__ofld_printf_buffer

// IMAGES-DAG: arch gfx90a
// IMAGES-DAG: arch gfx942
// AMD-ELF: 1048608 OBJECT {{.*}} __ofld_printf_buffer{{$}}

// NVIDIA: CUDA's vprintf, no buffer use.
// NV: call {{.*}} @vprintf(
// NV-NOT: @__ofld_vprintf
// NV-NOT: atomicrmw {{.*}}@__ofld_printf_buffer

// NV-BUFFERED-NOT: {{(call|declare).*}} @vprintf(
// NV-BUFFERED-DAG: @__ofld_printf_buffer_all = {{.*}} global
// NV-BUFFERED-DAG: call {{.*}} @__ofld_vprintf(
// NV-BUFFERED-DAG: atomicrmw add ptr @__ofld_printf_buffer_all

// OUT: first 7 of 3
// OUT-NEXT: from a helper: text 2.5
