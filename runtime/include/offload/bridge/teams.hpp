//===- offload/bridge/teams.hpp - the teams form on a device ----*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Not for users. What the standard teams form (compilers without LLVM's
// bare teams) must know of a device before a launch: how many OpenMP
// threads a team has, the memory for the grid states, the stack a kernel
// thread's copies may take, and the largest block that may synchronise.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BRIDGE_TEAMS_HPP
#define OFFLOAD_BRIDGE_TEAMS_HPP

#include "offload/bridge/devices.hpp"

#if defined(_OPENMP) && !defined(OFFLOAD_GPU_DEVICE)
#if !OFFLOAD_BRIDGE_BARE
namespace ofld::bridge {
namespace detail {

/// Teams form: how many OpenMP threads a team of device `D` can have, and
/// device memory for the grid states of the largest league asked for.
struct team_limits {
  unsigned threads, teams;
  ofld::detail::cpu_grid_state *slots;
  /// The stack of an OpenMP thread, where known (g++'s NVPTX code), else 0.
  unsigned long stack;
};
inline team_limits probeTeams(int D) {
  unsigned N = 1;
#pragma omp target teams num_teams(1) thread_limit(1024) device(D) map(from : N)
#pragma omp parallel num_threads(1024)
  {
    if (omp_get_thread_num() == 0)
      N = unsigned(omp_get_num_threads());
  }
  unsigned long Stack = 0;
#if defined(__GNUC__) && !defined(__clang__)
  // libgomp loads the plugin of each offload target it finds devices of.
  // libgomp 12's nvptx plugin gives each warp, an OpenMP thread, a stack of
  // 128 KiB (plugin-nvptx.c, nvptx_stacks_size: fixed, no environment
  // variable sets it). With another plugin loaded too, device D's is not
  // known here.
  auto Loaded = [](const char *Plugin) {
    void *H = dlopen(Plugin, RTLD_LAZY | RTLD_NOLOAD);
    if (H)
      dlclose(H);
    return H != nullptr;
  };
  if (Loaded("libgomp-plugin-nvptx.so.1") && !Loaded("libgomp-plugin-gcn.so.1"))
    Stack = 128 * 1024;
#endif
  // At most 8 MiB of grid states; more blocks than teams take turns.
  const std::size_t Bytes = sizeof(ofld::detail::cpu_grid_state);
  unsigned Teams = unsigned(8u << 20) / unsigned(Bytes * N);
  Teams = Teams > 1024 ? 1024 : (Teams ? Teams : 1);
  auto *Slots = static_cast<ofld::detail::cpu_grid_state *>(
      omp_target_alloc(std::size_t(Teams) * N * Bytes, D));
  return {N, Teams, Slots, Stack};
}
inline const team_limits &teamLimits(int D) {
  static std::mutex Lock;
  static std::vector<std::pair<int, team_limits>> Known;
  std::lock_guard<std::mutex> Guard(Lock);
  for (const auto &[Dev, L] : Known)
    if (Dev == D)
      return L;
  Known.reserve(Known.size() + 1);
  return Known.emplace_back(D, probeTeams(D)).second;
}

/// What a warp's stack (`L.stack`, g++'s NVPTX code) leaves for the by-value
/// objects a kernel modifies, which each kernel thread copies into its
/// parameters. The first warp of a team holds the region's frame, which has
/// a copy of them too (g++ inlines the CPU grid there, which a GPU never
/// runs), the team's frame with its shared-array arena (deviceTeams), and
/// the frame of the call (ptxas's frames for tests/e2e/big_by_value.cpp:
/// under 1 KiB more), libgomp's and the kernel's own variables (8 KiB kept).
/// 0: no limit known.
inline std::size_t stackForCopies(const team_limits &L) {
  constexpr std::size_t Reserve = sizeof(team_arena) + 8 * 1024;
  return !L.stack ? 0 : L.stack > Reserve ? (L.stack - Reserve) / 2 : 1;
}

/// The largest block of a kernel that synchronises that a team of device
/// `D` surely runs with one OpenMP thread per kernel thread. GCC's OpenMP
/// threads on NVPTX are warps, and a team has as many as the target
/// region's own kernel can have (CUDA's maximum threads per block of that
/// kernel over 32, at most 32): it depends on the registers each region
/// uses, which the probe's region does not tell. ptxas gives a thread at
/// most 255 registers, so every kernel can have 256 threads, 8 warps.
inline unsigned syncingTeam(const team_limits &L) {
  constexpr unsigned EveryKernel = 8;
  return L.threads < EveryKernel ? L.threads : EveryKernel;
}
} // namespace detail
} // namespace ofld::bridge
#endif
#endif

#endif // OFFLOAD_BRIDGE_TEAMS_HPP
