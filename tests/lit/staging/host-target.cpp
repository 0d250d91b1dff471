// Staging through pinned memory (runtime/lib/data/Staging.cpp) on the host
// offload target: off by default (threshold 0, nothing copied, the caller
// copies through libomptarget); with OFFLOAD_STAGING_ENGINE=omp the whole
// pipeline runs (libomptarget's pinned memory and copies, several workers,
// small pieces) and the bytes come back identical.
//
// RUN: %clangxx -std=c++20 -O2 -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu -I %S/../../../runtime/lib -I%runtime-include %s -o %t %link-rt
// RUN: %t | FileCheck %s --check-prefix=OFF
// RUN: env OFFLOAD_STAGING=0 OFFLOAD_STAGING_ENGINE=omp %t | FileCheck %s --check-prefix=OFF
// RUN: env OFFLOAD_STAGING_ENGINE=omp OFFLOAD_STAGING_THREADS=3 OFFLOAD_STAGING_PIECE=64K OFFLOAD_STAGING_MIN=1M %t | FileCheck %s --check-prefix=OMP
//
// OFF: devices: {{[1-9]}}
// OFF-NEXT: threshold: 0
// OFF-NEXT: no such device: 0 0 false false
// OFF-NEXT: to device: false, device bytes untouched: yes
// OFF-NEXT: from device: false, host bytes untouched: yes
// OFF-NEXT: done
//
// OMP: devices: {{[1-9]}}
// OMP-NEXT: threshold: 1048576
// OMP-NEXT: no such device: 0 0 false false
// OMP-NEXT: to device: true, identical: yes
// OMP-NEXT: from device: true, identical: yes
// OMP-NEXT: misaligned round trip: true, identical: yes
// OMP-NEXT: empty: true
// OMP-NEXT: done

#include "data/Data.h"

#include <omp.h>

#include <cstdio>
#include <cstring>
#include <vector>

using namespace ofld::detail;

int main() {
  const int Dev = 0, Host = omp_get_initial_device();
  const std::size_t N = (std::size_t(5) << 20) + 7;
  std::printf("devices: %d\n", omp_get_num_devices());
  std::printf("threshold: %zu\n", stagingThreshold(Dev));
  char Byte = 0;
  std::printf("no such device: %zu %zu %s %s\n", stagingThreshold(-1),
              stagingThreshold(omp_get_num_devices()),
              stageToDevice(-1, &Byte, &Byte, 1) ? "true" : "false",
              stageFromDevice(99, &Byte, &Byte, 1) ? "true" : "false");

  std::vector<char> Src(N + 16), Dst(N + 16, 0), Zero(N + 16, 0);
  for (std::size_t I = 0; I < Src.size(); ++I)
    Src[I] = char(I * 131 + (I >> 12));
  char *D = static_cast<char *>(omp_target_alloc(N + 16, Dev));
  omp_target_memcpy(D, Zero.data(), N + 16, 0, 0, Dev, Host);

  bool To = stageToDevice(Dev, D, Src.data(), N);
  omp_target_memcpy(Dst.data(), D, N, 0, 0, Host, Dev);
  if (stagingThreshold(Dev) == 0) {
    std::printf("to device: %s, device bytes untouched: %s\n",
                To ? "true" : "false",
                std::memcmp(Dst.data(), Zero.data(), N) ? "no" : "yes");
    omp_target_memcpy(D, Src.data(), N, 0, 0, Dev, Host);
    bool From = stageFromDevice(Dev, Dst.data(), D, N);
    std::printf("from device: %s, host bytes untouched: %s\n",
                From ? "true" : "false",
                std::memcmp(Dst.data(), Zero.data(), N) ? "no" : "yes");
  } else {
    std::printf("to device: %s, identical: %s\n", To ? "true" : "false",
                std::memcmp(Dst.data(), Src.data(), N) ? "no" : "yes");
    std::memset(Dst.data(), 0, Dst.size());
    bool From = stageFromDevice(Dev, Dst.data(), D, N);
    std::printf("from device: %s, identical: %s\n", From ? "true" : "false",
                std::memcmp(Dst.data(), Src.data(), N) ? "no" : "yes");
    // Odd length, misaligned on both sides; the bytes around stay zero.
    std::memset(Dst.data(), 0, Dst.size());
    std::size_t Odd = N - 1000;
    bool Round = stageToDevice(Dev, D + 5, Src.data() + 3, Odd) &&
                 stageFromDevice(Dev, Dst.data() + 1, D + 5, Odd);
    bool Same = !std::memcmp(Dst.data() + 1, Src.data() + 3, Odd) &&
                Dst[0] == 0 && Dst[Odd + 1] == 0;
    std::printf("misaligned round trip: %s, identical: %s\n",
                Round ? "true" : "false", Same ? "yes" : "no");
    std::printf("empty: %s\n",
                stageToDevice(Dev, D, Src.data(), 0) ? "true" : "false");
  }
  omp_target_free(D, Dev);
  std::printf("done\n");
}
