//===- offload/bridge/grid.hpp - one launch ---------------------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Not for users. The launch of one rewritten call as the target region
// gets it: the grid the kernel observes, the clauses of the construct, the
// device, and the CPU grid's functions where the region runs on a CPU. A
// plain struct, copied into the region.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BRIDGE_GRID_HPP
#define OFFLOAD_BRIDGE_GRID_HPP

#include "offload/bridge/site.hpp"

namespace ofld::bridge {

#if defined(_OPENMP) && !defined(OFFLOAD_GPU_DEVICE)
/// Host functions of the CPU grid, handed to target regions by address: the
/// region may be device code (GCC compiles it for the GPU too) or live in
/// another module (clang's host offload image).
struct cpu_hooks {
  ofld::detail::cpu_grid_state *(*state)();
  ofld::detail::cpu_barrier_fn barrier;
  void (*finish)(ofld::detail::cpu_grid_state *);
  ofld::detail::cpu_shared_fn shared;
  ofld::detail::cpu_warp_fn warp;
};
#else
struct cpu_hooks;
#endif

/// The launch of one rewritten call; copied into the target region.
struct grid {
  /// The logical grid (x, y, z) and block (x, y, z) the kernel observes.
  std::uint32_t dims[6];
  /// Bare form: num_teams (x, y, z) and thread_limit (x, y, z).
  std::uint32_t hw[6];
  /// Teams form: the league and team size asked for.
  std::uint32_t teams, threads;
  /// Bytes of dynamic shared memory a block (ofld::launch's .shared_bytes).
  std::uint32_t shared_bytes;
  /// The OpenMP device number.
  int device;
  /// The region runs on a CPU: emulate the grid there.
  bool cpu;
  /// The device the launch was meant for where it runs on the host instead
  /// (its data may be held there); -1 otherwise.
  int moved_from;
  const cpu_hooks *hooks;
  /// Teams form on a device: one grid state per (team, thread), in device
  /// memory.
  ofld::detail::cpu_grid_state *slots;
  /// The call, for messages.
  site at;
  /// `.nowait`: errors found before the construct wait for the next point
  /// that waits, on queue `queue` (index among the device's, 0: default).
  bool nowait;
  int queue;
};

} // namespace ofld::bridge

#endif // OFFLOAD_BRIDGE_GRID_HPP
