//===- offload/launch.hpp - launch shapes and the host API -----------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LAUNCH_HPP
#define OFFLOAD_LAUNCH_HPP

#include <cstdint>

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
  /// Return at once; the launch (transfers included) completes in the
  /// background and its results are valid after ofld::wait().
  bool nowait = false;
};

/// Waits for every launch started with `.nowait = true`.
void wait();

/// Called with the full message ("offload: kernel 'k' at f.cpp:12: ...")
/// instead of printing it and exiting. Returns the previous handler.
using error_handler = void (*)(const char *message);
error_handler set_error_handler(error_handler handler);

/// Number of offload devices of the preferred kind: the GPUs when the
/// program has an image for a GPU of this machine, else the host offload
/// target's devices; 0 when kernels can only run on the calling CPU.
/// `launch::device` and set_default_device() number these devices from 0.
int device_count();

/// Makes `device` (0 to device_count() - 1) the device of launches that name
/// none; -1 returns to the default, the first device of the preferred kind
/// (or OMP_DEFAULT_DEVICE, libomptarget's number, where the environment sets
/// it). Out-of-range numbers are reported at the next launch that uses them.
void set_default_device(int device);

} // namespace ofld

#endif // OFFLOAD_LAUNCH_HPP
