//===- offload/bridge/run.hpp - inside the target region --------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Not for users. What runs inside a rewritten call's target region: on a
// GPU in the bare form, the kernel once per hardware thread; in the teams
// form, each team's share of the blocks and each OpenMP thread's share of a
// block's threads; on a CPU, the CPU grid of detail/cpu_grid.hpp, reached
// through the hooks the host hands to the region (that code keeps
// per-OS-thread state and may not be device code).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BRIDGE_RUN_HPP
#define OFFLOAD_BRIDGE_RUN_HPP

#include "offload/bridge/grid.hpp"

// (Guarded: g++ -Wall warns about OpenMP pragmas without -fopenmp.)
#if defined(_OPENMP)
#pragma omp declare target
#endif
#if defined(_OPENMP)
/// The CPU grid's functions in this module (host code); null in device
/// memory and in a host offload image until a region sets it. (Declared in
/// GPU compilations too: the host's offload entries name them.)
inline const ofld::bridge::cpu_hooks *__ofld_bridge_hooks = nullptr;
/// Teams form on a device: the grid states, one per (team, thread), and the
/// threads per team they are laid out for.
inline ofld::detail::cpu_grid_state *__ofld_bridge_slots = nullptr;
inline unsigned __ofld_bridge_width = 0;
#endif
#if defined(_OPENMP) && !defined(OFFLOAD_GPU_DEVICE)

/// The grid state of the calling thread (device.hpp declares it `const`: a
/// thread's state stays where it is). noinline keeps it one opaque call, so
/// that the compiler asks once per kernel call, not once per index.
extern "C" inline __attribute__((noinline)) ofld::detail::cpu_grid_state *
__ofld_cpu_state() {
  if (const ofld::bridge::cpu_hooks *H = __ofld_bridge_hooks)
    return H->state();
  return __ofld_bridge_slots +
         unsigned(omp_get_team_num()) * __ofld_bridge_width +
         unsigned(omp_get_thread_num());
}
#endif

namespace ofld::bridge {
namespace detail {

/// Block `B` (a linear number) of grid `G` as x, y, z.
inline ofld::dim3 unflatten(std::uint64_t B, const ofld::dim3 &G) {
  return ofld::dim3{std::uint32_t(B % G.x), std::uint32_t(B / G.x % G.y),
                    std::uint32_t(B / G.x / G.y)};
}

#if defined(_OPENMP) && !defined(OFFLOAD_GPU_DEVICE)
/// Makes this module's CPU grid functions those of the launching program.
/// Out of line: the kernel's `const` state lookups come after it.
__attribute__((noinline)) inline ofld::detail::cpu_grid_state *
enterCpu(const grid &G) {
  __ofld_bridge_hooks = G.hooks;
  return G.hooks->state();
}

#endif

#if !defined(OFFLOAD_GPU_DEVICE)
/// Where and how the CPU grid runs: the grid state, its barrier, fiber
/// scheduler and shared arrays, and which blocks this thread runs.
struct cpu_walk {
  ofld::detail::cpu_grid_state *state;
  ofld::detail::cpu_barrier_fn barrier;
  void (*finish)(ofld::detail::cpu_grid_state *);
  ofld::detail::cpu_shared_fn shared;
  ofld::detail::cpu_warp_fn warp;
  std::uint64_t first, stride;
};

/// The CPU grid: the calling thread runs blocks W.first, W.first + W.stride,
/// ... Each block runs its threads in order, like the plugin's CPU grid: a
/// thread that reaches sync_threads() turns the rest of the block into
/// fibers, which finish before the next block starts.
template <class F> void walkCpuGrid(const grid &G, F &Body, const cpu_walk &W) {
  ofld::detail::cpu_grid_state &S = *W.state;
  const ofld::detail::cpu_grid_state Saved = S;
  S.grid = ofld::dim3{G.dims[0], G.dims[1], G.dims[2]};
  S.block = ofld::dim3{G.dims[3], G.dims[4], G.dims[5]};
  S.barrier = W.barrier;
  S.shared = W.shared;
  S.warp = W.warp;
  S.access = nullptr;
  S.kernel = nullptr;
  S.run_thread = [](void *B) { (*static_cast<F *>(B))(); };
  S.run_ctx = &Body;
  S.fibers = 0;
  // The launch's dynamic shared memory: one buffer for the blocks this
  // thread runs, named by its state (as the plugin's CPU grid does).
  S.dyn_shared_bytes = G.shared_bytes;
  S.dyn_shared =
      G.shared_bytes ? W.shared(&S, &S, G.shared_bytes, 16) : nullptr;
  std::uint64_t Blocks = std::uint64_t(S.grid.x) * S.grid.y * S.grid.z;
  for (std::uint64_t B = W.first; B < Blocks; B += W.stride) {
    // OFFLOAD_CHECK=shared: the checker (installed by the first shared
    // array) settles the last block's accesses.
    if (S.access)
      S.access(&S, nullptr);
    S.block_id = unflatten(B, S.grid);
    bool Fibers = false;
    for (std::uint32_t TZ = 0; TZ < S.block.z && !Fibers; ++TZ)
      for (std::uint32_t TY = 0; TY < S.block.y && !Fibers; ++TY)
        for (std::uint32_t TX = 0; TX < S.block.x && !Fibers; ++TX) {
          S.thread_id = ofld::dim3{TX, TY, TZ};
          Body();
          Fibers = S.fibers != 0;
        }
    if (Fibers)
      W.finish(&S);
  }
  if (S.access)
    S.access(&S, nullptr);
  S = Saved;
}

/// The CPU grid of a team: with OpenMP, team T of N runs blocks T, T+N, ...
/// with the launching program's CPU grid functions (the region may run in
/// another module); without, the target construct is ignored and the whole
/// grid runs here.
template <class F> void cpuTeam(const grid &G, F &Body) {
#if defined(_OPENMP)
  const int Team = omp_get_team_num(), Teams = omp_get_num_teams();
  walkCpuGrid(G, Body,
              {enterCpu(G), G.hooks->barrier, G.hooks->finish, G.hooks->shared,
               G.hooks->warp, std::uint64_t(Team > 0 ? Team : 0),
               std::uint64_t(Teams > 0 ? Teams : 1)});
#else
  walkCpuGrid(G, Body,
              {&ofld::detail::cpu_grid_ref(), &__ofld_cpu_barrier,
               &__ofld_cpu_finish_block, &__ofld_cpu_shared, &__ofld_cpu_warp,
               0, 1});
#endif
}
#endif

#if defined(_OPENMP) && !OFFLOAD_BRIDGE_BARE
/// Teams form on a device: the shared arrays of the block a team runs, in
/// storage local to the team (CUDA's default limit of static shared memory).
struct team_arena {
  static constexpr unsigned Bytes = 48 * 1024, MaxArrays = 32;
  struct entry {
    const void *key;
    unsigned offset, bytes;
  } entries[MaxArrays];
  unsigned count, used;
  /// Every OpenMP thread of the team runs exactly one kernel thread: the
  /// kernel may synchronise.
  bool direct;
  alignas(64) unsigned char data[Bytes];
};

inline void teamBarrier(ofld::detail::cpu_grid_state *S) {
  if (!static_cast<team_arena *>(S->scheduler)->direct) {
    // shape() refuses kernels known to synchronise before they launch;
    // this one synchronises through code the rewriter did not see.
    std::printf("offload: ofld::sync_threads() in a block of %llu threads, "
                "but the OpenMP implementation runs fewer threads per team\n",
                (unsigned long long)(S->block.x * S->block.y * S->block.z));
    std::abort();
  }
#pragma omp barrier
}

inline void *teamShared(ofld::detail::cpu_grid_state *S, const void *Key,
                        std::size_t Bytes, std::size_t Align) {
  team_arena &A = *static_cast<team_arena *>(S->scheduler);
  void *P = nullptr;
#pragma omp critical(__ofld_bridge_shared)
  {
    for (unsigned I = 0; I < A.count && !P; ++I)
      if (A.entries[I].key == Key && A.entries[I].bytes >= Bytes)
        P = A.data + A.entries[I].offset;
    if (!P && A.count < team_arena::MaxArrays) {
      unsigned Offset = unsigned((A.used + Align - 1) / Align * Align);
      if (Offset + Bytes <= team_arena::Bytes) {
        A.entries[A.count++] = {Key, Offset, unsigned(Bytes)};
        A.used = Offset + unsigned(Bytes);
        P = A.data + Offset;
      }
    }
  }
  if (!P) {
    std::printf("offload: the shared arrays of a block exceed %u bytes\n",
                team_arena::Bytes);
    std::abort();
  }
  return P;
}

/// Teams form on a device: each team runs blocks T, T+N, ...; its OpenMP
/// threads run the block's threads t, t+M, ... (one each where the team is
/// as large as the block). A barrier ends every block, so that the next one
/// starts with the shared arrays free.
template <class F> void deviceTeams(const grid &G, F &Body) {
  team_arena Arena;
  Arena.count = Arena.used = 0;
  const ofld::dim3 Grid{G.dims[0], G.dims[1], G.dims[2]};
  const ofld::dim3 Block{G.dims[3], G.dims[4], G.dims[5]};
  const std::uint64_t Blocks = std::uint64_t(Grid.x) * Grid.y * Grid.z;
  const std::uint32_t Threads = Block.x * Block.y * Block.z;
#pragma omp parallel num_threads(G.threads) shared(Arena)
  {
    const unsigned Tid = unsigned(omp_get_thread_num());
    const unsigned NThreads = unsigned(omp_get_num_threads());
#pragma omp single
    {
      Arena.direct = NThreads >= Threads;
      // Every team stores the same values.
#pragma omp atomic write
      __ofld_bridge_slots = G.slots;
#pragma omp atomic write
      __ofld_bridge_width = G.threads;
    }
    ofld::detail::cpu_grid_state &S = *__ofld_cpu_state();
    S.grid = Grid;
    S.block = Block;
    S.barrier = &teamBarrier;
    S.shared = &teamShared;
    // No warp functions here: OpenMP threads are not lanes (GCC's are
    // warps), and shape() runs kernels that call them on the host; one it
    // did not know of stops with a message (device.hpp).
    S.warp = nullptr;
    S.access = nullptr;
    S.scheduler = &Arena;
    S.fibers = 0;
    // Dynamic shared memory: in the team's arena (shape() moved launches
    // that ask for more to the host), named by the arena.
    S.dyn_shared_bytes = G.shared_bytes;
    S.dyn_shared =
        G.shared_bytes ? teamShared(&S, &Arena, G.shared_bytes, 16) : nullptr;
    const int Teams = omp_get_num_teams();
    for (std::uint64_t B = unsigned(omp_get_team_num()); B < Blocks;
         B += unsigned(Teams > 0 ? Teams : 1)) {
      S.block_id = unflatten(B, Grid);
      for (std::uint32_t T = Tid; T < Threads; T += NThreads) {
        S.thread_id = unflatten(T, Block);
        Body();
      }
#pragma omp barrier
    }
  }
}
#endif

} // namespace detail

/// Runs the kernel call `Body` inside a bare target region (clang 19+).
template <class F> void run_bare(const grid &G, F &&Body) {
  if (!G.dims[0])
    return; // an empty grid: nothing to do, as under the plugin
#if defined(OFFLOAD_GPU_DEVICE)
  // Every hardware thread is one kernel thread; the grid is the hardware's.
  Body();
#else
  detail::cpuTeam(G, Body);
#endif
}

/// Runs the kernel call `Body` inside a target teams region of the form
/// that OFFLOAD_BRIDGE_BARE selects.
template <class F> void run(const grid &G, F &&Body) {
#if OFFLOAD_BRIDGE_BARE || !defined(_OPENMP)
  run_bare(G, Body);
#else
  if (!G.dims[0])
    return;
  if (G.cpu || omp_is_initial_device())
    detail::cpuTeam(G, Body);
  else
    detail::deviceTeams(G, Body);
#endif
}

} // namespace ofld::bridge
#if defined(_OPENMP)
#pragma omp end declare target
#endif

#endif // OFFLOAD_BRIDGE_RUN_HPP
