//===- bench/staging/staging_bench.cpp - pageable, pinned, staged copies --===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// Host<->device copy rates on one device, for sizes 1 MiB ... 1 GiB:
//   pageable  omp_target_memcpy from/to std::vector-style (pageable) memory
//   pinned    omp_target_memcpy from/to llvm_omp_target_alloc_host memory
//             (the upper bound)
//   staged    ofld::detail::stageToDevice / stageFromDevice from/to the same
//             pageable memory (runtime/lib/data/Staging.cpp)
// Medians of GB/s (1e9 bytes/s). Every size is also checked: staged in and
// libomptarget out, libomptarget in and staged out, and a misaligned staged
// round trip must all give the bytes back identical. Last, the transfers of
// STREAM triad with transfers (2^25 doubles: b, c in, a out) in a row.
//
// A plain OpenMP program, no plugin (bench/staging/build.sh):
//   clang++-22 -O2 -std=c++20 -fopenmp --offload-arch=sm_90 -nogpulib
//     -Iruntime/lib -Iruntime/include staging_bench.cpp -Lbuild/lib -lofld_rt
// Options: --device N, --sizes 1M,64M,..., --reps N, --staged-only.
// Run with KMP_BLOCKTIME=0: after the parallel fills, idle OpenMP threads
// would otherwise spin for 200 ms on the cores the copy workers need.
//
//===----------------------------------------------------------------------===//

#include "data/Data.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

extern "C" {
void *llvm_omp_target_alloc_host(std::size_t Size, int DeviceNum);
void llvm_omp_target_free_host(void *Ptr, int DeviceNum);
}

using ofld::detail::stageFromDevice;
using ofld::detail::stageToDevice;
using ofld::detail::stagingThreshold;

namespace {

constexpr std::size_t MiB = std::size_t(1) << 20;

double seconds() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Median seconds of `Reps` timed runs after one untimed.
double median(int Reps, const std::function<bool()> &Run) {
  if (!Run()) {
    std::fprintf(stderr, "copy failed\n");
    std::exit(1);
  }
  std::vector<double> T;
  for (int I = 0; I < Reps; ++I) {
    double T0 = seconds();
    if (!Run()) {
      std::fprintf(stderr, "copy failed\n");
      std::exit(1);
    }
    T.push_back(seconds() - T0);
  }
  std::sort(T.begin(), T.end());
  return T[T.size() / 2];
}

/// Fills `N` bytes with a pattern that depends on `Seed` (in parallel: a
/// GiB takes a while on one core).
void fill(char *P, std::size_t N, std::uint64_t Seed) {
  std::size_t Words = N / 8;
#pragma omp parallel for schedule(static)
  for (std::size_t I = 0; I < Words; ++I) {
    std::uint64_t X = (I + 1) * 0x9E3779B97F4A7C15ull ^ Seed;
    X ^= X >> 31;
    X *= 0xBF58476D1CE4E5B9ull;
    X ^= X >> 29;
    std::memcpy(P + I * 8, &X, 8);
  }
  for (std::size_t I = Words * 8; I < N; ++I)
    P[I] = char(I ^ Seed);
}

void clear(char *P, std::size_t N) {
  constexpr std::size_t Block = 16 * MiB;
#pragma omp parallel for schedule(static)
  for (std::size_t B = 0; B < (N + Block - 1) / Block; ++B)
    std::memset(P + B * Block, 0, std::min(Block, N - B * Block));
}

std::size_t parseSize(const std::string &S) {
  std::size_t V = std::stoull(S);
  switch (S.back()) {
  case 'K':
  case 'k':
    return V << 10;
  case 'M':
  case 'm':
    return V << 20;
  case 'G':
  case 'g':
    return V << 30;
  default:
    return V;
  }
}

} // namespace

int main(int Argc, char **Argv) {
  int Device = 0, Reps = 0;
  bool StagedOnly = false;
  std::vector<std::size_t> Sizes;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "--device" && I + 1 < Argc)
      Device = std::atoi(Argv[++I]);
    else if (A == "--reps" && I + 1 < Argc)
      Reps = std::atoi(Argv[++I]);
    else if (A == "--staged-only")
      StagedOnly = true;
    else if (A == "--sizes" && I + 1 < Argc) {
      std::string L = Argv[++I];
      for (std::size_t P = 0; P < L.size();) {
        std::size_t C = L.find(',', P);
        Sizes.push_back(parseSize(L.substr(P, C - P)));
        P = C == std::string::npos ? L.size() : C + 1;
      }
    } else {
      std::fprintf(stderr,
                   "usage: %s [--device N] [--sizes 1M,64M,...] "
                   "[--reps N] [--staged-only]\n",
                   Argv[0]);
      return 2;
    }
  }
  if (Sizes.empty())
    for (std::size_t S = MiB; S <= 1024 * MiB; S *= 2)
      Sizes.push_back(S);
  std::size_t Max = *std::max_element(Sizes.begin(), Sizes.end());
  // The triad's arrays: 2^25 doubles.
  constexpr std::size_t Triad = (std::size_t(1) << 25) * sizeof(double);
  Max = std::max(Max, Triad);

  int Host = omp_get_initial_device();
  const char *Uid = omp_get_uid_from_device(Device);
  std::printf("# device %d of %d (%s); staging threshold %zu bytes\n", Device,
              omp_get_num_devices(), Uid ? Uid : "?", stagingThreshold(Device));
  if (Device >= omp_get_num_devices()) {
    std::fprintf(stderr, "no device %d\n", Device);
    return 1;
  }

  // Pageable buffers (malloc'ed and touched, like a std::vector's) and the
  // device buffer; one spare byte each for the misaligned check.
  std::vector<char> SrcV(Max + 64), DstV(Max + 64);
  char *Src = SrcV.data(), *Dst = DstV.data();
  fill(Src, Max + 64, 1);
  clear(Dst, Max + 64);
  char *Dev = static_cast<char *>(omp_target_alloc(Max + 64, Device));
  char *PinSrc = nullptr, *PinDst = nullptr;
  if (!StagedOnly) {
    PinSrc = static_cast<char *>(llvm_omp_target_alloc_host(Max, Device));
    PinDst = static_cast<char *>(llvm_omp_target_alloc_host(Max, Device));
  }
  if (!Dev || (!StagedOnly && (!PinSrc || !PinDst))) {
    std::fprintf(stderr, "allocation failed\n");
    return 1;
  }
  if (!StagedOnly) {
    std::memcpy(PinSrc, Src, Max);
    clear(PinDst, Max);
  }

  auto ToDev = [&](const char *From, std::size_t N) {
    return !omp_target_memcpy(Dev, From, N, 0, 0, Device, Host);
  };
  auto FromDev = [&](char *To, std::size_t N) {
    return !omp_target_memcpy(To, Dev, N, 0, 0, Host, Device);
  };

  int Failures = 0;
  std::printf("%8s %10s %10s %10s   %10s %10s %10s   %s\n", "MiB", "in:page",
              "in:pinned", "in:staged", "out:page", "out:pinned", "out:staged",
              "check");
  for (std::size_t N : Sizes) {
    // Correctness first, each size with its own bytes.
    fill(Src, N + 64, N);
    bool Ok = stageToDevice(Device, Dev, Src, N);
    Ok = Ok && FromDev(Dst, N) && !std::memcmp(Dst, Src, N);
    clear(Dst, N);
    fill(Src, N, N * 3 + 1);
    Ok = Ok && ToDev(Src, N);
    Ok =
        Ok && stageFromDevice(Device, Dst, Dev, N) && !std::memcmp(Dst, Src, N);
    // Misaligned on both sides, odd length; the bytes around stay.
    std::size_t Odd = N - 13;
    clear(Dst, N + 64);
    Ok = Ok && stageToDevice(Device, Dev + 5, Src + 3, Odd) &&
         stageFromDevice(Device, Dst + 1, Dev + 5, Odd) &&
         !std::memcmp(Dst + 1, Src + 3, Odd) && Dst[0] == 0 &&
         Dst[Odd + 1] == 0;
    Failures += !Ok;

    int R = Reps ? Reps : int(std::clamp<std::size_t>(2048 * MiB / N, 5, 30));
    auto Rate = [&](double T) { return double(N) / T / 1e9; };
    double InPage = 0, InPin = 0, OutPage = 0, OutPin = 0;
    if (!StagedOnly) {
      InPage = Rate(median(R, [&] { return ToDev(Src, N); }));
      InPin = Rate(median(R, [&] { return ToDev(PinSrc, N); }));
      OutPage = Rate(median(R, [&] { return FromDev(Dst, N); }));
      OutPin = Rate(median(R, [&] { return FromDev(PinDst, N); }));
    }
    double InStaged =
        Rate(median(R, [&] { return stageToDevice(Device, Dev, Src, N); }));
    double OutStaged =
        Rate(median(R, [&] { return stageFromDevice(Device, Dst, Dev, N); }));
    std::printf("%8.0f %10.2f %10.2f %10.2f   %10.2f %10.2f %10.2f   %s\n",
                double(N) / double(MiB), InPage, InPin, InStaged, OutPage,
                OutPin, OutStaged, Ok ? "identical" : "MISMATCH");
    std::fflush(stdout);
  }

  // The triad's transfers: b and c in, a out, 256 MiB each, from three
  // distinct pageable arrays to three device arrays.
  {
    std::vector<char> A(Triad), B(Triad), C(Triad);
    fill(A.data(), Triad, 11);
    fill(B.data(), Triad, 12);
    fill(C.data(), Triad, 13);
    char *DA = static_cast<char *>(omp_target_alloc(Triad, Device));
    char *DB = static_cast<char *>(omp_target_alloc(Triad, Device));
    char *DC = static_cast<char *>(omp_target_alloc(Triad, Device));
    if (!DA || !DB || !DC) {
      std::fprintf(stderr, "allocation failed\n");
      return 1;
    }
    auto Page = [&] {
      return !omp_target_memcpy(DB, B.data(), Triad, 0, 0, Device, Host) &&
             !omp_target_memcpy(DC, C.data(), Triad, 0, 0, Device, Host) &&
             !omp_target_memcpy(A.data(), DA, Triad, 0, 0, Host, Device);
    };
    auto Staged = [&] {
      return stageToDevice(Device, DB, B.data(), Triad) &&
             stageToDevice(Device, DC, C.data(), Triad) &&
             stageFromDevice(Device, A.data(), DA, Triad);
    };
    double TPage = StagedOnly ? 0 : median(7, Page);
    double TStaged = median(7, Staged);
    std::printf("# triad transfers (2 x 256 MiB in, 256 MiB out): pageable "
                "%.2f ms, staged %.2f ms (%.2f GB/s each way)\n",
                TPage * 1e3, TStaged * 1e3,
                3.0 * double(Triad) / TStaged / 1e9);
    omp_target_free(DA, Device);
    omp_target_free(DB, Device);
    omp_target_free(DC, Device);
  }

  // Concurrent callers (launches from several threads): each stages its own
  // quarter in and back out, three times; the bytes must survive.
  {
    constexpr int Callers = 4;
    std::size_t Part = std::min<std::size_t>(Max / Callers, 64 * MiB);
    fill(Src, Part * Callers, 99);
    clear(Dst, Part * Callers);
    std::vector<std::thread> Threads;
    std::vector<int> Bad(Callers, 0);
    for (int T = 0; T < Callers; ++T)
      Threads.emplace_back([&, T] {
        std::size_t Off = T * Part;
        for (int Rep = 0; Rep < 3; ++Rep)
          Bad[T] += !stageToDevice(Device, Dev + Off, Src + Off, Part) ||
                    !stageFromDevice(Device, Dst + Off, Dev + Off, Part);
      });
    for (std::thread &T : Threads)
      T.join();
    bool Ok = std::count(Bad.begin(), Bad.end(), 0) == Callers &&
              !std::memcmp(Dst, Src, Part * Callers);
    Failures += !Ok;
    std::printf("# %d concurrent callers, %zu MiB each: %s\n", Callers,
                Part / MiB, Ok ? "identical" : "MISMATCH");
  }

  // Single-thread memcpy between pageable buffers, for scale.
  {
    std::size_t N = std::min<std::size_t>(Max, 256 * MiB);
    double T = median(5, [&] {
      std::memcpy(Dst, Src, N);
      return true;
    });
    std::printf("# host memcpy, one thread, %zu MiB: %.2f GB/s\n", N / MiB,
                double(N) / T / 1e9);
  }

  omp_target_free(Dev, Device);
  if (PinSrc) {
    llvm_omp_target_free_host(PinSrc, Device);
    llvm_omp_target_free_host(PinDst, Device);
  }
  std::printf("# %s\n", Failures ? "MISMATCH" : "all bytes identical");
  return Failures ? 1 : 0;
}
