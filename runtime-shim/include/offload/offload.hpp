//===- offload/offload.hpp - offload user API and launch ABI ----*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// What a kernel author and a launching host program see:
//
//   [[offload::kernel]] void saxpy(float a, std::span<const float> x,
//                                  std::span<float> y);
//   offload(saxpy, 2.0f, x, y);
//   offload(ofld::launch{.grid = {4096}, .block = {256}}, saxpy, 2.0f, x, y);
//
// With the plugin loaded this header is bundled into the compiler and
// included automatically; `offload` is then only declared and every call is
// lowered by the plugin into the libomptarget launch sequence. Without the
// plugin (g++, plain clang++) the same source runs its kernels on the CPU
// with the same grid semantics.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_OFFLOAD_HPP
#define OFFLOAD_OFFLOAD_HPP

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#if defined(__NVPTX__) || defined(__AMDGPU__)
#define OFFLOAD_GPU_DEVICE 1
#include <gpuintrin.h>
#endif

#if !defined(__OFFLOAD_PLUGIN__) && !defined(OFFLOAD_GPU_DEVICE)
#include "offload/cpu_fallback.hpp"
#endif

namespace ofld {

/// A 1-3 dimensional extent. Unset components of a designated initialiser
/// stay 1, so `{.x = 64}` and `{64}` both mean 64x1x1.
struct dim3 {
  std::uint32_t x = 1, y = 1, z = 1;
};

/// The launch shape of one `offload()` call. A zero `grid.x` asks for the
/// default: one thread per element of the kernel's first span or array
/// parameter. A zero `block.x` asks for blocks of 256 threads (1 when the
/// kernel has no span or array parameter).
///
/// The layout is part of the launch ABI read by the plugin's host lowering.
struct launch {
  dim3 grid = {0, 0, 0};
  dim3 block = {0, 0, 0};
  /// Device to run on; -1 means the default device.
  std::int32_t device = -1;
};

/// Called with the full message ("offload: kernel 'k' at f.cpp:12: ...")
/// instead of printing it and exiting. Returns the previous handler.
using error_handler = void (*)(const char *message);
error_handler set_error_handler(error_handler handler);

/// Number of offload devices (0 when kernels can only run on the host CPU).
int device_count();

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

namespace __ofld {

/// Calls a kernel with the parameter objects at `objs`. The plugin
/// instantiates one per kernel signature (host and device compile) so that
/// clang, not the plugin, knows each target's calling convention.
#pragma omp declare target
template <class... P, std::size_t... I>
void invoke_with(void (*kernel)(P...), void **objs, std::index_sequence<I...>) {
  kernel(*static_cast<std::remove_reference_t<P> *>(objs[I])...);
}
template <class... P> void invoke(void (*kernel)(P...), void **objs) {
  invoke_with(kernel, objs, std::index_sequence_for<P...>{});
}

#if !defined(OFFLOAD_GPU_DEVICE)
/// Runs every (block, thread) pair of a grid on the calling CPU thread.
/// `dims` holds grid x,y,z then block x,y,z.
template <class... P>
void cpu_grid(const std::uint32_t *dims, void (*kernel)(P...), void **objs) {
  using ofld::dim3;
  auto &g = ofld::detail::cpu_grid_ref();
  const ofld::detail::cpu_grid_state saved = g;
  g.grid = dim3{dims[0], dims[1], dims[2]};
  g.block = dim3{dims[3], dims[4], dims[5]};
  for (std::uint32_t bz = 0; bz < g.grid.z; ++bz)
    for (std::uint32_t by = 0; by < g.grid.y; ++by)
      for (std::uint32_t bx = 0; bx < g.grid.x; ++bx)
        for (std::uint32_t tz = 0; tz < g.block.z; ++tz)
          for (std::uint32_t ty = 0; ty < g.block.y; ++ty)
            for (std::uint32_t tx = 0; tx < g.block.x; ++tx) {
              g.block_id = dim3{bx, by, bz};
              g.thread_id = dim3{tx, ty, tz};
              invoke(kernel, objs);
            }
  g = saved;
}
#endif
#pragma omp end declare target

} // namespace __ofld

#if defined(__OFFLOAD_PLUGIN__)
// Every call is rewritten by the plugin: it checks the call, fills the hidden
// `__ofld_site` descriptor from the kernel's parameter types and lowers the
// marker symbol into the libomptarget launch sequence. Parameters arrive by
// address whatever their C++ type, so the lowering is ABI independent.
template <class... P>
void offload(void (*kernel)(P...), const std::type_identity_t<P> &...args,
             const char *__ofld_site = nullptr) __asm__("__ofld_launch");
template <class... P>
void offload(const ofld::launch &shape, void (*kernel)(P...),
             const std::type_identity_t<P> &...args,
             const char *__ofld_site = nullptr)
    __asm__("__ofld_launch_shaped");
#endif

#if !defined(__OFFLOAD_PLUGIN__) && !defined(OFFLOAD_GPU_DEVICE)
namespace __ofld {
template <class... P>
void cpu_offload(const ofld::launch *shape, void (*kernel)(P...),
                 const std::type_identity_t<P> &...args) {
  long long Count = default_count<P...>(args...);
  ofld::launch L = shape ? *shape : ofld::launch{};
  std::uint32_t Block = L.block.x ? L.block.x : (Count >= 0 ? 256 : 1);
  std::uint32_t Grid =
      L.grid.x ? L.grid.x
               : (Count >= 0 ? std::uint32_t((Count + Block - 1) / Block) : 1);
  std::uint32_t Dims[6] = {Grid,
                           L.grid.x ? (L.grid.y ? L.grid.y : 1) : 1,
                           L.grid.x ? (L.grid.z ? L.grid.z : 1) : 1,
                           Block,
                           L.block.x ? (L.block.y ? L.block.y : 1) : 1,
                           L.block.x ? (L.block.z ? L.block.z : 1) : 1};
  // Parameters are built exactly as an ordinary call would build them.
  void *Objs[sizeof...(P) + 1] = {
      const_cast<void *>(static_cast<const void *>(&args))...};
  cpu_grid(Dims, kernel, Objs);
}
} // namespace __ofld
#endif

#endif // OFFLOAD_OFFLOAD_HPP
