//===- offload/runtime.h - entry points of the offload host runtime -*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Called by the code the plugin emits, not by users. The layout of
// __ofld_site is mirrored in plugin/CodeGen/HostLowering.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_RUNTIME_H
#define OFFLOAD_RUNTIME_H

#include <cstdint>

namespace ofld {
struct launch;
}

/// Where a launch comes from, for messages.
struct __ofld_site {
  const char *kernel;
  const char *file;
  std::uint32_t line, column;
  /// __ofld_site_warned_const: the plugin warned at compile time that the
  /// launch writes into a range a region maps to the device only.
  std::uint32_t flags;
};
enum : std::uint32_t { __ofld_site_warned_const = 1 };

extern "C" {
/// The libomptarget device to run on, or -1 to run on this CPU.
int64_t __ofld_select_device(const __ofld_site *Site,
                             const ofld::launch *Shape);
/// Fills grid x,y,z and block x,y,z (ofld::detail::default_dims). `Count` is
/// the element count of the kernel's shape parameter, or -1 if it has none.
/// Checks them against the limits of `Device` and of the kernel `Region`
/// there. Returns 0 when nothing must run (an empty grid, or an error), 1 to
/// run now, 2 to run without waiting.
int32_t __ofld_launch_shape(const __ofld_site *Site, const ofld::launch *Shape,
                            int64_t Count, int64_t Device, const void *Region,
                            uint32_t *Dims);
/// Queues the launch on its queue's stream if every one of its `N` mapped
/// ranges (the first of its `Total` argument entries) is on the device
/// already, and returns 1; returns 0 for libomptarget's path, having waited
/// for the queue's earlier launches if `Mode` is 1 (it waits). Also returns
/// 1, having reported it, for a launch that cannot run at all.
int32_t __ofld_enqueue(const __ofld_site *Site, const ofld::launch *Shape,
                       const void *Region, int64_t Device,
                       const uint32_t *Dims, int32_t Mode, int32_t N,
                       int32_t Total, void **Ptrs, const int64_t *Sizes,
                       const int64_t *Types, const char **Names);
/// Heap context of a launch that does not wait; freed after it ran.
void *__ofld_async_alloc(int64_t Bytes);
/// Runs `Body(Context, Dims, Device)` on the worker of the launch's queue,
/// after the queue's earlier launches (see ofld::wait).
void __ofld_async_submit(const __ofld_site *Site, const ofld::launch *Shape,
                         void (*Body)(void **, uint32_t *, int64_t),
                         void *Context, uint32_t *Dims, int64_t Device);
struct __ofld_map_plan;
/// Decides, before the launch, what happens to the first `N` of its `Total`
/// argument entries, the mapped ranges (runtime-shim/lib/MapPlan.cpp):
/// overlapping ranges are merged, ranges the device cannot hold are
/// reported, small ones are moved to pinned memory the device holds, large
/// ones are mapped and copied through pinned memory. Rewrites `Ptrs`,
/// `Sizes` and `Types` in place. Returns what __ofld_finish_maps must undo,
/// or null; &__ofld_abandoned_plan when it reported a failure: the launch
/// must not run.
__ofld_map_plan *__ofld_plan_maps(const __ofld_site *Site, int64_t Device,
                                  int32_t N, int32_t Total, void **Ptrs,
                                  int64_t *Sizes, int64_t *Types,
                                  const char **Names);
extern __ofld_map_plan __ofld_abandoned_plan;
/// After the launch: copies moved and staged ranges back if `Launched`,
/// releases them.
void __ofld_finish_maps(__ofld_map_plan *Plan, int32_t Launched);
/// Before the first launch of a launch group (consecutive launches sharing
/// arguments): maps the `N` ranges the group holds; returns the device, or
/// -1 when the launches will run on this CPU.
int64_t __ofld_group_begin(const __ofld_site *Site, int32_t N, void **Ptrs,
                           int64_t *Sizes, int64_t *Types, const char **Names);
/// After the last launch of the group: waits for its launches, copies back
/// and releases.
void __ofld_group_end(int64_t Device, int32_t N, void **Ptrs, int64_t *Sizes,
                      int64_t *Types);
/// A launch returned `Rc`; reports it when offloading is mandatory or when
/// the device keeps some of its `N` mapped ranges (the CPU cannot take
/// over then).
void __ofld_launch_failed(const __ofld_site *Site, int64_t Device, int32_t Rc,
                          int32_t N, void **Ptrs, int64_t *Sizes);

//===-- Reductions (runtime-shim/lib/Reductions.cpp) ----------------------===//
/// The device address of the scratch of reduction `Index` (in parameter
/// order) of a launch of grid `Dims` on `Device`: an arrival counter (zero
/// between launches) and one partial per block (offload/reduction.hpp).
/// `OnStream`: for __ofld_enqueue's stream launch on `Shape`'s queue, else
/// for libomptarget's synchronous launch. 0 for CPU grids, which need none,
/// and after reporting a failure (the kernel then leaves the variable as
/// it was).
uint64_t __ofld_reduction_scratch(const __ofld_site *Site, int64_t Device,
                                  const ofld::launch *Shape, int32_t OnStream,
                                  const uint32_t *Dims, int32_t Index);
}

#endif // OFFLOAD_RUNTIME_H
