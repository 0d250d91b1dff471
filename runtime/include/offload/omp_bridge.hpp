//===- offload/omp_bridge.hpp - offload() as plain OpenMP -------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Support for the sources that `offload-rewrite` writes, so that compilers
// without the plugin build them: g++ (host, or -foffload=nvptx-none), clang
// with or without offload targets. Each rewritten `offload()` call becomes
//
//   const long long E[3] = {...}; // the kernel's bounds check (launch.hpp)
//   ofld::bridge::grid G = ofld::bridge::shape(Site, Launch, E);
//   #if OFFLOAD_BRIDGE_BARE
//   #pragma omp target teams ompx_bare num_teams(G.hw[0..2])
//                               thread_limit(G.hw[3..5]) device(..) map(..)
//   #else
//   #pragma omp target teams num_teams(G.teams) thread_limit(G.threads) ...
//   #endif
//   ofld::bridge::run(G, [&] { kernel(...); });
//
// Two forms, because the OpenMP that every compiler implements has no
// kernel-style grid, and Debian's LLVM ships no OpenMP device runtime:
//
//  * bare (clang 19 and later, LLVM's `ompx_bare`): every hardware thread of
//    a GPU runs the kernel once and the ofld:: index functions read the
//    hardware registers, exactly as under the plugin; nothing of the OpenMP
//    device runtime is needed.
//  * teams (any OpenMP 4.5 compiler): on a GPU each team walks its share of
//    the blocks and, inside `#pragma omp parallel`, each OpenMP thread its
//    share of a block's threads; sync_threads() is `#pragma omp barrier`,
//    shared arrays live in storage local to the team. A kernel that
//    synchronises needs one OpenMP thread per kernel thread: GCC runs at most
//    32 per team on NVPTX (its threads are warps), so larger blocks that
//    synchronise are refused with a message before they launch.
//
// On a CPU (the host, the host offload target, the host fallback) both forms
// run each team's blocks on the team's thread with the CPU grid of
// detail/cpu_grid.hpp, whose fibers implement sync_threads(). That code
// keeps per-OS-thread state and may not be device code (OpenMP forbids
// thread_local there, and GCC compiles every target region for the GPU as
// well), so it is reached through function pointers (`cpu_hooks`) that
// host code hands to the region.
//
// The bridge also implements what offload.hpp declares for libofld_rt
// (device_count, set_default_device, set_error_handler, wait, ofld::region)
// with the OpenMP API, so a rewritten program links no offload library.
// The launch-shape, device, error, overlap and capacity rules are the
// runtime's own: both take them from offload/policy/.
//
// This header only gathers offload/bridge/, one concern a file:
//   config     the compiler's form of the construct, OpenMP declarations
//   site, grid a rewritten call and its launch, as the region gets them
//   params     how kernel parameters and mapped arguments are spelled
//   reduction  reduction parameters, folded on the host
//   run        what runs inside the target region (GPU, teams, CPU grid)
//   errors     reporting, deferred errors of launches that did not wait
//   devices    the device table and each launch's device
//   teams      the teams form's limits on a device
//   cuda       free device memory from the CUDA driver
//   data       maps, overlapping ranges, capacity, const-entry writes
//   launch     shape(), default_device(), group_fits(), aliases
//   host_api   offload.hpp's host API without libofld_rt
//   buffer     ofld::device_buffer's runtime functions
//   region     ofld::region's runtime functions
//   transfer   ofld::copy, ofld::fill and ofld::properties
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_OMP_BRIDGE_HPP
#define OFFLOAD_OMP_BRIDGE_HPP

#include "offload/bridge/config.hpp"

#include "offload/bridge/buffer.hpp"
#include "offload/bridge/cuda.hpp"
#include "offload/bridge/data.hpp"
#include "offload/bridge/devices.hpp"
#include "offload/bridge/errors.hpp"
#include "offload/bridge/grid.hpp"
#include "offload/bridge/host_api.hpp"
#include "offload/bridge/launch.hpp"
#include "offload/bridge/params.hpp"
#include "offload/bridge/reduction.hpp"
#include "offload/bridge/region.hpp"
#include "offload/bridge/run.hpp"
#include "offload/bridge/site.hpp"
#include "offload/bridge/teams.hpp"
#include "offload/bridge/transfer.hpp"

#endif // OFFLOAD_OMP_BRIDGE_HPP
