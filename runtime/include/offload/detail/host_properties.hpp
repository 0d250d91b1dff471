//===- offload/detail/host_properties.hpp - the CPU as a device -*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Not for users. ofld::properties of the CPU, for every path that runs
// kernels on it (the host offload target, no device, builds without OpenMP):
// one definition that libofld_rt, the OpenMP bridge and properties.hpp
// share, so the paths report the same. The limits are the ones the CPU
// emulation enforces (launch.hpp's portable limits, 32-lane warps as
// NVIDIA's); the rest is read from the system (Linux: /proc, sysconf).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_DETAIL_HOST_PROPERTIES_HPP
#define OFFLOAD_DETAIL_HOST_PROPERTIES_HPP

#include "offload/launch.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <sys/utsname.h>
#include <unistd.h>

namespace ofld::detail {

/// Threads of a warp in the CPU emulation: NVIDIA's, so that warp-level
/// code computes what it computes there.
inline constexpr int cpu_warp_size = 32;
/// Shared memory per block the CPU paths report: CUDA's limit without
/// opt-in, what portable code may count on (the emulation allocates
/// block-shared arrays on the heap and has no smaller limit).
inline constexpr long long cpu_shared_memory_per_block = 48 * 1024;

/// The value of the first line of `Path` that starts with `Key` (up to its
/// ':'), without leading blanks, in `Out`; false if there is none.
inline bool proc_field(const char *Path, const char *Key, char *Out,
                       std::size_t Size) {
  std::FILE *F = std::fopen(Path, "r");
  if (!F)
    return false;
  char Line[512];
  bool Found = false;
  const std::size_t KeyLength = std::strlen(Key);
  while (!Found && std::fgets(Line, sizeof(Line), F)) {
    const char *Colon = std::strchr(Line, ':');
    if (std::strncmp(Line, Key, KeyLength) || !Colon)
      continue;
    const char *V = Colon + 1;
    while (*V == ' ' || *V == '\t')
      ++V;
    std::snprintf(Out, Size, "%s", V);
    Out[std::strcspn(Out, "\n")] = 0;
    Found = true;
  }
  std::fclose(F);
  return Found;
}

/// Fills `I` (an __ofld_device_info, properties.hpp) with the CPU's
/// properties.
template <class Info> void host_device_info(Info &I) {
  std::memset(&I, 0, sizeof(I));
  if (!proc_field("/proc/cpuinfo", "model name", I.name, sizeof(I.name)))
    std::snprintf(I.name, sizeof(I.name), "host CPU");
  utsname U;
  std::snprintf(I.arch, sizeof(I.arch), "%s",
                uname(&U) == 0 ? U.machine : "host");
  long Cores = sysconf(_SC_NPROCESSORS_ONLN);
  I.multiprocessors = Cores > 0 ? Cores : 1;
  long Page = sysconf(_SC_PAGESIZE);
  long Pages = sysconf(_SC_PHYS_PAGES);
  I.global_memory = Page > 0 && Pages > 0 ? (long long)Page * Pages : 0;
  char Value[128];
  // MemAvailable counts what can be freed for a new allocation (caches).
  if (proc_field("/proc/meminfo", "MemAvailable", Value, sizeof(Value)))
    I.free_memory = std::atoll(Value) * 1024;
  else if (long Free = sysconf(_SC_AVPHYS_PAGES); Free > 0 && Page > 0)
    I.free_memory = (long long)Page * Free;
  I.max_threads_per_block = (long long)portable_max_threads;
  for (int D = 0; D < 3; ++D) {
    I.max_grid[D] = (long long)portable_max_grid[D];
    I.max_block[D] = (long long)portable_max_block[D];
  }
  I.shared_memory_per_block = cpu_shared_memory_per_block;
  I.warp_size = cpu_warp_size;
  // The highest clock where cpufreq says, else what /proc/cpuinfo says now.
  if (std::FILE *F = std::fopen(
          "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "r")) {
    long long Khz = 0;
    if (std::fscanf(F, "%lld", &Khz) == 1)
      I.clock_khz = Khz;
    std::fclose(F);
  }
  if (!I.clock_khz &&
      proc_field("/proc/cpuinfo", "cpu MHz", Value, sizeof(Value)))
    I.clock_khz = (long long)(std::atof(Value) * 1000.0);
}

} // namespace ofld::detail

#endif // OFFLOAD_DETAIL_HOST_PROPERTIES_HPP
