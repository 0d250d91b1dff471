//===- offload/policy/launch_limits.hpp - portable limits -------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The largest grid, block and dynamic shared memory a launch may ask for
// where nobody can ask the device: the host offload target, the CPU fallback,
// AMD GPUs, the OpenMP bridge, and the plugin's compile-time checks of constant
// shapes. They are those of NVIDIA GPUs since sm_30, so that a shape runs on
// the CPU exactly where it would run on a GPU. One definition for the runtime,
// the headers and the compiler, so a launch refused at compile time is the one
// refused at run time.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_POLICY_LAUNCH_LIMITS_HPP
#define OFFLOAD_POLICY_LAUNCH_LIMITS_HPP

#include <cstdint>

namespace ofld::policy {

/// The largest grid, per dimension.
inline constexpr std::uint64_t PortableMaxGrid[3] = {0x7fffffff, 65535, 65535};
/// The largest block, per dimension.
inline constexpr std::uint64_t PortableMaxBlock[3] = {1024, 1024, 64};
/// The most threads of one block.
inline constexpr std::uint64_t PortableMaxThreads = 1024;
/// The most bytes of dynamic shared memory of one block (ofld::launch's
/// .shared_bytes): what an H100 or H200 (sm_90) gives a kernel without
/// static shared memory once it opts in, 227 KiB. The CPU emulation allows
/// as much, so that a launch runs on the CPU where it runs on those GPUs.
inline constexpr std::uint64_t PortableMaxSharedBytes = 227 * 1024;

} // namespace ofld::policy

#endif // OFFLOAD_POLICY_LAUNCH_LIMITS_HPP
