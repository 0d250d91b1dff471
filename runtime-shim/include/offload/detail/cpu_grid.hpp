//===- offload/detail/cpu_grid.hpp - launch thunks and CPU grid emulation *- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Not for users. `invoke` calls a kernel with its parameter objects (the
// device entries the plugin generates call it); `cpu_grid` runs a whole grid
// on the calling CPU thread (host offload target, host fallback, builds
// without the plugin).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_DETAIL_CPU_GRID_HPP
#define OFFLOAD_DETAIL_CPU_GRID_HPP

#include "offload/device.hpp"

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

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

#endif // OFFLOAD_DETAIL_CPU_GRID_HPP
