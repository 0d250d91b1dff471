//===- launch/CpuGrid.cpp - the CPU grid scheduler for OpenMP builds ------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Programs built with -fopenmp run CPU grids (host fallback, and the
// host-offload image libomptarget loads) through these exported copies of
// the scheduler in detail/cpu_grid.hpp: OpenMP target code may not hold the
// thread_local state it needs, and every image of a process shares one.
// The per-thread state of a CPU grid is here too, for the same reason.
//
//===----------------------------------------------------------------------===//

#define OFFLOAD_CPU_GRID_IMPL 1
#include "offload/detail/cpu_grid.hpp"
#include "offload/offload.hpp"

extern "C" ofld::detail::cpu_grid_state *__ofld_cpu_state() {
  static thread_local ofld::detail::cpu_grid_state State;
  return &State;
}
