//===- offload/device.hpp - the device-side index API ----------------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// What kernel code calls: thread and block indices, barriers. On NVPTX and
// AMDGPU these are clang's <gpuintrin.h>; on the CPU (host offload target,
// host fallback, builds without the plugin) they read the state of the grid
// emulation in detail/cpu_grid.hpp.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_DEVICE_HPP
#define OFFLOAD_DEVICE_HPP

#include "offload/launch.hpp"

#include <cstddef>
#include <cstdint>

#if defined(__NVPTX__) || defined(__AMDGPU__)
#define OFFLOAD_GPU_DEVICE 1
#include <gpuintrin.h>
#endif

namespace ofld {

namespace detail {
/// State of the CPU grid emulation: the host offload target and host
/// fallback run every (block, thread) pair through the kernel body.
struct cpu_grid_state {
  dim3 grid, block, block_id, thread_id;
};
#if defined(_OPENMP) && !defined(OFFLOAD_GPU_DEVICE)
} // namespace detail
} // namespace ofld
// OpenMP forbids thread_local in target code, and a host-offload image is a
// separate shared object: both reach the state through the runtime library.
extern "C" ofld::detail::cpu_grid_state *__ofld_cpu_state();
namespace ofld {
namespace detail {
inline cpu_grid_state &cpu_grid_ref() { return *__ofld_cpu_state(); }
#elif !defined(OFFLOAD_GPU_DEVICE)
inline thread_local cpu_grid_state cpu_grid;
inline cpu_grid_state &cpu_grid_ref() { return cpu_grid; }
#endif
} // namespace detail

#if defined(OFFLOAD_GPU_DEVICE)
inline std::uint32_t thread_id(int dim = 0) {
  return dim == 0 ? __gpu_thread_id_x() : dim == 1 ? __gpu_thread_id_y()
                                                   : __gpu_thread_id_z();
}
inline std::uint32_t block_id(int dim = 0) {
  return dim == 0 ? __gpu_block_id_x() : dim == 1 ? __gpu_block_id_y()
                                                  : __gpu_block_id_z();
}
inline std::uint32_t block_dim(int dim = 0) {
  return dim == 0 ? __gpu_num_threads_x() : dim == 1 ? __gpu_num_threads_y()
                                                     : __gpu_num_threads_z();
}
inline std::uint32_t grid_dim(int dim = 0) {
  return dim == 0 ? __gpu_num_blocks_x() : dim == 1 ? __gpu_num_blocks_y()
                                                    : __gpu_num_blocks_z();
}
inline void sync_threads() { __gpu_sync_threads(); }
#else
namespace detail {
inline std::uint32_t pick(const dim3 &d, int dim) {
  return dim == 0 ? d.x : dim == 1 ? d.y : d.z;
}
} // namespace detail
inline std::uint32_t thread_id(int dim = 0) {
  return detail::pick(detail::cpu_grid_ref().thread_id, dim);
}
inline std::uint32_t block_id(int dim = 0) {
  return detail::pick(detail::cpu_grid_ref().block_id, dim);
}
inline std::uint32_t block_dim(int dim = 0) {
  return detail::pick(detail::cpu_grid_ref().block, dim);
}
inline std::uint32_t grid_dim(int dim = 0) {
  return detail::pick(detail::cpu_grid_ref().grid, dim);
}
/// The CPU emulation runs the threads of a block one after another, so a
/// barrier is only meaningful for blocks of one thread there.
inline void sync_threads() {}
#endif

/// The x/y/z global thread index: block_id * block_dim + thread_id.
inline std::size_t global_id(int dim = 0) {
  return std::size_t(block_id(dim)) * block_dim(dim) + thread_id(dim);
}

} // namespace ofld

#endif // OFFLOAD_DEVICE_HPP
