//===- bench/common/omp_bare.hpp - thread indices in ompx_bare regions ----===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The OpenMP baselines write each kernel as
//
//   #pragma omp target teams ompx_bare num_teams(BARE_TEAMS(nb))
//       thread_limit(BARE_THREADS(nt)) map(...)
//   BARE_FOR(i, nb, nt) { ...body for global thread index i... }
//
// (BARE_GRID_THREADS(nb, nt) is the grid's thread count, for grid strides.)
//
// On NVPTX every hardware thread runs the body once, with its index read
// through clang's <gpuintrin.h> -- exactly what offload() kernels and CUDA
// do. On a CPU offload target (built with -DBENCH_OMP_CPU_TARGET, used only
// to check the baselines' transfers and results here) a team is one thread:
// it walks its share of the blocks, and each block's threads in order.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_COMMON_OMP_BARE_HPP
#define OFFLOAD_BENCH_COMMON_OMP_BARE_HPP

#include <omp.h>

#include <cstddef>

#if defined(__NVPTX__)
#include <gpuintrin.h>
// NB and NT are named (and so captured by the target region, in the order
// the host's loop below names them) although the GPU does not need them: the
// host and the device compilation must capture the same variables, or the
// kernel's parameters differ from the arguments the host passes (the host's
// copy of the region, its fallback, loops over NB). With `nb` captured only
// by the host, every argument after it was shifted by one: the kernels read
// `n` as the block count and a pointer from `n`'s slot -- an illegal address
// (stream_omp) or a failed copy back after the launch (launch_omp,
// xfer_omp: "Call to targetDataEnd failed").
#define BARE_FOR(I, NB, NT)                                                    \
  for (std::size_t                                                             \
           I##_once = ((void)(NB), (void)(NT), std::size_t(0)),                \
           I = std::size_t(__gpu_block_id_x()) * __gpu_num_threads_x() +       \
               __gpu_thread_id_x();                                            \
       I##_once < 1; ++I##_once)
/// Threads in the grid (for grid-stride loops), read as CUDA reads it.
#define BARE_GRID_THREADS(NB, NT)                                              \
  (std::size_t(__gpu_num_blocks_x()) * __gpu_num_threads_x())
#else
#define BARE_FOR(I, NB, NT)                                                    \
  for (std::size_t I##_b = std::size_t(omp_get_team_num());                    \
       I##_b < std::size_t(NB); I##_b += std::size_t(omp_get_num_teams()))     \
    for (std::size_t I##_t = 0, I = I##_b * std::size_t(NT);                   \
         I##_t < std::size_t(NT);                                              \
         ++I##_t, I = I##_b * std::size_t(NT) + I##_t)
#define BARE_GRID_THREADS(NB, NT) (std::size_t(NB) * std::size_t(NT))
#endif

#if defined(BENCH_OMP_CPU_TARGET)
// A CPU cannot form more teams than it has cores, and a team runs one thread.
inline int bare_teams(std::size_t nb) {
  int p = omp_get_num_procs();
  return nb < std::size_t(p) ? int(nb) : p;
}
#define BARE_TEAMS(NB) bare_teams(NB)
#define BARE_THREADS(NT) 1
#else
#define BARE_TEAMS(NB) int(NB)
#define BARE_THREADS(NT) int(NT)
#endif

#endif // OFFLOAD_BENCH_COMMON_OMP_BARE_HPP
