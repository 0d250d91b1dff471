//===- offload/launch.hpp - launch shapes, queues, host API -----*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// What a launch configuration is, and the one definition of the default
// launch shape that the runtime, the CPU fallback and the OpenMP bridge
// share (ofld::detail::default_dims below). Its input, what the kernel's
// bounds check admits, is read from the kernel's body by the plugin and
// offload-rewrite (core/include/offload/Core/LaunchBounds.h).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LAUNCH_HPP
#define OFFLOAD_LAUNCH_HPP

#include "offload/policy/launch_limits.hpp"

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace ofld {

/// One component of a dim3: any integer, as CUDA code computes its `int
/// nblocks`, with no cast and no narrowing error. It holds 64 bits; a value
/// the device cannot launch, a negative one included, is an error naming it
/// when the launch runs (a negative one is kept as its two's complement,
/// which no device allows, and reported as the negative number it was).
class dim_component {
public:
  template <class I>
    requires std::is_integral_v<I>
  constexpr dim_component(I v) : value_(static_cast<std::uint64_t>(v)) {}
  constexpr operator std::uint64_t() const { return value_; }

private:
  std::uint64_t value_;
};

/// A 1-3 dimensional extent. Unset components of a designated initialiser
/// stay 1, so `{.x = 64}` and `{64}` both mean 64x1x1; `{n / 256}` takes a
/// `size_t` or an `int` alike.
struct dim3 {
  dim_component x = 1, y = 1, z = 1;
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
/// the default shape: one thread per index the kernel's bounds check on
/// ofld::global_id() admits (`if (i < n)`: n threads), in blocks of 256
/// (32x8, 32x4x2 for 2-D and 3-D bounds), or one thread for a kernel that
/// reads no thread index. A set grid or block with a zero component launches
/// nothing, as a zero bound does.
///
/// The layout is part of the launch ABI read by the runtime.
struct launch {
  /// Unset: all three components 0 (what the default member holds).
  dim3 grid = {0, 0, 0};
  dim3 block = {0, 0, 0};
  /// Bytes of dynamic shared memory each block gets, which the kernel reads
  /// with ofld::dynamic_shared<T>() (CUDA's third launch parameter). More
  /// than 48 KiB needs no opt-in; more than the device allows is an error.
  std::size_t shared_bytes = 0;
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
/// ask the device (offload/policy/launch_limits.hpp). On NVIDIA GPUs the
/// runtime asks the device.
inline constexpr const std::uint64_t (&portable_max_grid)[3] =
    ofld::policy::PortableMaxGrid;
inline constexpr const std::uint64_t (&portable_max_block)[3] =
    ofld::policy::PortableMaxBlock;
inline constexpr std::uint64_t portable_max_threads =
    ofld::policy::PortableMaxThreads;
inline constexpr std::uint64_t portable_max_shared_bytes =
    ofld::policy::PortableMaxSharedBytes;

/// The dynamic shared memory of the launch `l` (null for none), in bytes.
constexpr std::uint64_t shared_bytes_of(const launch *l) {
  return l ? l->shared_bytes : 0;
}

/// What the call site computed from the kernel's bounds check for one
/// dimension (`extent[d]` of default_dims): a count >= 0, the number of
/// indices `ofld::global_id(d)` may take (`if (i < n)`: n; a negative bound
/// is 0), or one of these.
inline constexpr long long extent_unindexed = -1; ///< the kernel never reads
                                                  ///< ofld::global_id(d)
inline constexpr long long extent_unknown = -2;   ///< reads it, but no bound
                                                  ///< of it could be read
inline constexpr long long extent_unread = -3; ///< offload-rewrite did not see
                                               ///< the kernel's body (it is
                                               ///< defined in another file)

/// The operators of a bound that are not C++'s own (offload-rewrite spells
/// bounds with them; the plugin's IR does the same): a division by zero is 0.
constexpr long long bound_div(long long a, long long b) {
  return b ? a / b : 0;
}
constexpr long long bound_min(long long a, long long b) {
  return a < b ? a : b;
}
constexpr long long bound_max(long long a, long long b) {
  return a < b ? b : a;
}

/// Whether the kernel indexes dimension `d` (with or without a bound).
constexpr bool is_indexed(long long extent) {
  return extent != extent_unindexed;
}

/// The default block: default_block_threads shared by the dimensions the
/// kernel indexes, x first (256; 32x8; 32x4x2), no more than the extent
/// where it is smaller (a bound of 1 runs one thread); 1 in the others, so
/// that no two threads see the same ofld::global_id() in every dimension.
constexpr void default_block(const long long extent[3],
                             std::uint64_t block[3]) {
  constexpr std::uint64_t split[4][3] = {
      {1, 1, 1}, {default_block_threads, 1, 1}, {32, 8, 1}, {32, 4, 2}};
  int n = 0;
  for (int d = 0; d < 3; ++d)
    n += is_indexed(extent[d]);
  int k = 0;
  for (int d = 0; d < 3; ++d) {
    block[d] = is_indexed(extent[d]) ? split[n][k++] : 1;
    if (extent[d] >= 1 && std::uint64_t(extent[d]) < block[d])
      block[d] = std::uint64_t(extent[d]);
  }
  if (block[2] > 64) // a kernel indexing only z: the block's z limit
    block[2] = 64;
}

/// Whether a dim3 was left unset (the default member of ofld::launch).
constexpr bool is_unset(const dim3 &d) { return !d.x && !d.y && !d.z; }

/// Whether the launch `l` (null for none) leaves the grid to the kernel's
/// bounds check and the kernel has none that could be read: the launch
/// must not run (the call site is named with unbounded_cause).
constexpr bool lacks_bound(const launch *l, const long long extent[3]) {
  if (l && !is_unset(l->grid))
    return false;
  for (int d = 0; d < 3; ++d)
    if (extent[d] == extent_unknown || extent[d] == extent_unread)
      return true;
  return false;
}

/// Grid x, y, z and block x, y, z of a launch: `l` is the call's launch (null
/// for none), `extent` what the kernel's bounds check admits per dimension.
/// Unset grid: enough blocks for one thread per admitted index in each
/// indexed dimension, 1 in the others (a kernel that reads no thread index
/// runs one thread). Unset block: default_block with an unset grid; with a
/// set grid, default_block_threads along x, whatever the kernel, so that a
/// grid means the same with and without the plugin. Call lacks_bound first.
/// Any zero component means nothing runs (see is_empty).
constexpr void default_dims(const launch *l, const long long extent[3],
                            std::uint64_t dims[6]) {
  const dim3 unset = {0, 0, 0};
  const dim3 &g = l ? l->grid : unset;
  const dim3 &b = l ? l->block : unset;
  if (is_unset(b) && is_unset(g)) {
    default_block(extent, dims + 3);
  } else if (is_unset(b)) {
    dims[3] = default_block_threads;
    dims[4] = dims[5] = 1;
  } else {
    dims[3] = b.x;
    dims[4] = b.y;
    dims[5] = b.z;
  }
  if (is_unset(g)) {
    for (int d = 0; d < 3; ++d) {
      // A zero block component launches nothing anyway; do not divide by it.
      std::uint64_t per = dims[3 + d] ? dims[3 + d] : 1;
      std::uint64_t n = extent[d] > 0 ? std::uint64_t(extent[d]) : 0;
      dims[d] = is_indexed(extent[d]) ? (n + per - 1) / per : 1;
    }
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
  if (Limit < 6 && Dims[Limit] > std::uint64_t(INT64_MAX))
    std::snprintf(Out, Size,
                  "launch %s is %lld: launch dimensions cannot be negative",
                  What[Limit], (long long)Dims[Limit]);
  else if (Limit < 6)
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

/// Writes why `Bytes` of dynamic shared memory exceed `Max` (the limit of
/// the device, or the portable one) and returns true, or returns false when
/// they are within it.
inline bool shared_cause(char *Out, std::size_t Size, std::uint64_t Bytes,
                         std::uint64_t Max) {
  if (Bytes <= Max)
    return false;
  std::snprintf(Out, Size,
                "launch asks for %llu bytes of dynamic shared memory "
                "(.shared_bytes), more than the limit of %llu",
                (unsigned long long)Bytes, (unsigned long long)Max);
  return true;
}

/// What a limits error adds where the default shape's grid (one left unset
/// by `L`) exceeds a grid limit, in any dimension; "" otherwise.
inline const char *default_grid_hint(const ofld::launch *L,
                                     const std::uint64_t Dims[6],
                                     const std::uint64_t MaxGrid[3]) {
  if (L && !ofld::detail::is_unset(L->grid))
    return "";
  for (int I = 0; I < 3; ++I)
    if (Dims[I] > MaxGrid[I])
      return " (the default shape: one thread per index the kernel's bounds "
             "check admits; pass ofld::launch{.grid = ...})";
  return "";
}

/// Writes why a launch that ofld::detail::lacks_bound cannot run.
inline void unbounded_cause(char *Out, std::size_t Size,
                            const long long Extent[3]) {
  if (Extent[0] == ofld::detail::extent_unread) {
    std::snprintf(Out, Size,
                  "the launch gives no grid, and offload-rewrite did not read "
                  "the kernel's bounds check (the kernel is defined in "
                  "another file): pass ofld::launch{.grid = ..., .block = "
                  "...}");
    return;
  }
  int D = 0;
  while (D < 2 && Extent[D] != ofld::detail::extent_unknown)
    ++D;
  std::snprintf(Out, Size,
                "the launch gives no grid, and the kernel reads "
                "ofld::global_id(%d) with no bounds check the compiler could "
                "read: pass ofld::launch{.grid = ..., .block = ...} or add a "
                "bounds check ('if (i < n)')",
                D);
}
} // namespace __ofld

// __ofld_report_error: in libofld_rt; inline in builds without the plugin
// and without OpenMP (cpu_fallback.hpp).
#include "offload/abi.hpp"
#endif

#endif // OFFLOAD_LAUNCH_HPP
