//===- offload/launch.hpp - launch shapes, queues, host API -----*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// What a launch configuration is, and the one definition of the default
// launch shape that the runtime, the CPU fallback and the OpenMP bridge
// share (ofld::detail::shape_param and ofld::detail::default_dims below).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LAUNCH_HPP
#define OFFLOAD_LAUNCH_HPP

#include <cstddef>
#include <cstdint>

namespace ofld {

/// A 1-3 dimensional extent. Unset components of a designated initialiser
/// stay 1, so `{.x = 64}` and `{64}` both mean 64x1x1. Components are 64 bit
/// so that `{n / 256}` with a `size_t n` needs no cast; a value the device
/// cannot launch is an error when the launch runs, never a wrap.
struct dim3 {
  std::uint64_t x = 1, y = 1, z = 1;
};

/// An in-order queue of launches on one device, like a CUDA stream: launches
/// on one queue run in the order they were issued, launches on different
/// queues may overlap. A cheap, copyable handle; `queue{}` is the default
/// queue of the device a launch runs on, `queue{d}` a queue of its own on
/// device `d` (a device owns a fixed set of them; beyond that, queues share
/// them, which only adds ordering). They live until the program ends.
class queue {
public:
  constexpr queue() = default;
  explicit queue(int device);
  /// Waits for every launch issued on this queue, and reports the errors of
  /// the ones that failed (ofld::set_error_handler).
  void wait() const;
  /// The device (offload's number), or -1 for "the launch's device".
  constexpr int device() const { return device_; }
  constexpr bool operator==(const queue &) const = default;

  // The runtime's handle: device and index among the device's queues
  // (0: its default queue). Part of the launch ABI.
  std::int32_t device_ = -1;
  std::int32_t index_ = 0;
};

/// The launch shape of one `offload()` call. A grid or block left unset is
/// the default shape: one thread per element of the kernel's first written
/// span or array parameter (else its first span or array) in blocks of 256,
/// or one thread for a kernel without one. A set grid or block with a zero
/// component launches nothing, as an empty span does.
///
/// The layout is part of the launch ABI read by the runtime.
struct launch {
  /// Unset: all three components 0 (what the default member holds).
  dim3 grid = {0, 0, 0};
  dim3 block = {0, 0, 0};
  /// Device to run on; -1 means the default device (or the queue's).
  std::int32_t device = -1;
  /// Return as soon as the launch is queued, also when it must copy data
  /// back: its results are valid after ofld::wait() or the queue's wait().
  bool nowait = false;
  /// The queue the launch runs on (default: the device's default queue).
  ofld::queue queue = {};
};

/// Waits for every launch on every queue and device, and reports the errors
/// of the ones that failed (ofld::set_error_handler).
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

//===-- The default launch shape -----------------------------------------===//

namespace detail {

/// Threads per block of the default shape.
inline constexpr std::uint64_t default_block_threads = 256;

/// The largest grid and block a launch may ask for where the runtime cannot
/// ask the device (the host offload target, the CPU fallback, AMD GPUs):
/// those of NVIDIA GPUs since sm_30, so that a shape runs on the CPU exactly
/// where it would run on a GPU. On NVIDIA GPUs the runtime asks the device.
inline constexpr std::uint64_t portable_max_grid[3] = {0x7fffffff, 65535,
                                                       65535};
inline constexpr std::uint64_t portable_max_block[3] = {1024, 1024, 64};
inline constexpr std::uint64_t portable_max_threads = 1024;

/// What a kernel parameter is to the default shape.
enum class shape_role : unsigned char {
  none,    ///< not a span or array
  read,    ///< a span or array the kernel only reads
  written, ///< std::span<T>, T(&)[N], std::array<T, N>&, [[offload::out]]
};

/// The parameter whose element count sets the default shape: the first
/// written span or array, else the first span or array; -1 if there is none.
constexpr int shape_param(const shape_role *roles, std::size_t n) {
  int first = -1;
  for (std::size_t i = 0; i < n; ++i) {
    if (roles[i] == shape_role::written)
      return int(i);
    if (roles[i] == shape_role::read && first < 0)
      first = int(i);
  }
  return first;
}

/// Whether a dim3 was left unset (the default member of ofld::launch).
constexpr bool is_unset(const dim3 &d) { return !d.x && !d.y && !d.z; }

/// Grid x, y, z and block x, y, z of a launch: `l` is the call's launch (null
/// for none), `count` the element count of the shape parameter (-1 without
/// one). Unset block: 256 threads (1 without a shape parameter). Unset grid:
/// enough blocks of block.x threads for `count` (1 without a shape
/// parameter). Any zero component means nothing runs (see is_empty).
constexpr void default_dims(const launch *l, long long count,
                            std::uint64_t dims[6]) {
  const dim3 unset = {0, 0, 0};
  const dim3 &g = l ? l->grid : unset;
  const dim3 &b = l ? l->block : unset;
  bool has_shape = count >= 0;
  if (is_unset(b)) {
    dims[3] = has_shape ? default_block_threads : 1;
    dims[4] = dims[5] = 1;
  } else {
    dims[3] = b.x;
    dims[4] = b.y;
    dims[5] = b.z;
  }
  if (is_unset(g)) {
    // A zero block.x launches nothing anyway; do not divide by it.
    std::uint64_t per = dims[3] ? dims[3] : 1;
    dims[0] = has_shape ? (std::uint64_t(count) + per - 1) / per : 1;
    dims[1] = dims[2] = 1;
  } else {
    dims[0] = g.x;
    dims[1] = g.y;
    dims[2] = g.z;
  }
}

/// default_dims and is_empty in words, for offload-rewrite --explain: an
/// unset grid or block is the default shape, and
inline constexpr char zero_component_rule[] =
    "a zero component launches nothing";

/// Whether a launch of `dims` runs no thread at all.
constexpr bool is_empty(const std::uint64_t dims[6]) {
  for (int i = 0; i < 6; ++i)
    if (!dims[i])
      return true;
  return false;
}

/// Which limit `dims` exceeds: -1 none; 0-2 grid x-z, 3-5 block x-z, 6 the
/// block's thread count. `max_grid`, `max_block`, `max_threads`: the device's.
constexpr int exceeded_limit(const std::uint64_t dims[6],
                             const std::uint64_t max_grid[3],
                             const std::uint64_t max_block[3],
                             std::uint64_t max_threads) {
  for (int i = 0; i < 3; ++i)
    if (dims[i] > max_grid[i])
      return i;
  for (int i = 0; i < 3; ++i)
    if (dims[3 + i] > max_block[i])
      return 3 + i;
  if (dims[3] * dims[4] * dims[5] > max_threads)
    return 6;
  return -1;
}

} // namespace detail
} // namespace ofld

#if !defined(__NVPTX__) && !defined(__AMDGPU__)
#include <cstdio>

namespace __ofld {
/// Writes why `Dims` exceed the limits (the cause of the error, as the
/// runtime and the CPU fallback both word it) and returns true, or returns
/// false when they are within them.
inline bool limit_cause(char *Out, std::size_t Size,
                        const std::uint64_t Dims[6],
                        const std::uint64_t MaxGrid[3],
                        const std::uint64_t MaxBlock[3],
                        std::uint64_t MaxThreads) {
  int Limit = ofld::detail::exceeded_limit(Dims, MaxGrid, MaxBlock, MaxThreads);
  if (Limit < 0)
    return false;
  static const char *const What[] = {"grid.x",  "grid.y",  "grid.z",
                                     "block.x", "block.y", "block.z"};
  if (Limit < 6)
    std::snprintf(
        Out, Size, "launch %s is %llu, more than the limit of %llu",
        What[Limit], (unsigned long long)Dims[Limit],
        (unsigned long long)(Limit < 3 ? MaxGrid[Limit] : MaxBlock[Limit - 3]));
  else
    std::snprintf(Out, Size,
                  "launch block of %llu threads (%llux%llux%llu) is more than "
                  "the limit of %llu threads per block",
                  (unsigned long long)(Dims[3] * Dims[4] * Dims[5]),
                  (unsigned long long)Dims[3], (unsigned long long)Dims[4],
                  (unsigned long long)Dims[5], (unsigned long long)MaxThreads);
  return true;
}
} // namespace __ofld

/// Reports a whole "offload: ..." message to the error handler, or on stderr
/// and exits with status 1. In libofld_rt; inline in builds without the
/// plugin and without OpenMP (cpu_fallback.hpp).
extern "C" void __ofld_report_error(const char *message);
#endif

#endif // OFFLOAD_LAUNCH_HPP
