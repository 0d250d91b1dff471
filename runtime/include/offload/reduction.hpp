//===- offload/reduction.hpp - typed reductions -----------------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// A kernel parameter `ofld::sum<T>&`, `ofld::min<T>&` or `ofld::max<T>&`
// declares a reduction; the launch passes a plain lvalue of T, which holds
// its old value combined with every thread's contributions afterwards:
//
//   [[offload::kernel]] void dot(std::span<const double> x,
//                                std::span<const double> y,
//                                ofld::sum<double> &s) {
//     if (auto i = ofld::global_id(); i < x.size()) s += x[i] * y[i];
//   }
//   double total = 0;
//   offload(dot, x, y, total);
//
// Each thread gets its own accumulator (a register), started at the
// operation's identity. When the thread's kernel body returns, the launch
// thunk combines the block's accumulators in a fixed tree (warp shuffles,
// then one value per warp), writes one partial per block to device scratch,
// and the block that finishes last combines the partials in block order and
// folds the result into the variable. The order of every combination is a
// function of the grid and block only, so a GPU gives bit-identical results
// run after run; the CPU paths (host offload target, host fallback, builds
// without the plugin) replay the same tree with 32-lane warps, which is
// NVIDIA's order exactly (docs/Reductions.md).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_REDUCTION_HPP
#define OFFLOAD_REDUCTION_HPP

#include "offload/device.hpp"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

namespace ofld {

namespace detail {
enum class reduce_op : unsigned char { sum = 1, min = 2, max = 3 };

/// The element types a reduction takes: integers (no bool) and float or
/// double, of at most 8 bytes: the same on host and device
/// (TransferRules.cpp's isReductionValue says the same to the plugin).
/// (A function: OpenMP compilers do not put variable templates in device
/// code.)
template <class T> constexpr bool reduction_value() {
  return ((std::is_integral_v<T> &&
           !std::is_same_v<std::remove_cv_t<T>, bool>) ||
          std::is_same_v<T, float> || std::is_same_v<T, double>) &&
         !std::is_const_v<T> && !std::is_volatile_v<T> && sizeof(T) <= 8;
}

/// Identity and combination of one operation. min and max ignore NaNs, as
/// std::fmin and std::fmax do, so the result does not depend on where a NaN
/// meets a number.
template <reduce_op Op, class T> struct reduce_traits {
  static constexpr T identity() {
    using L = std::numeric_limits<T>;
    if constexpr (Op == reduce_op::sum)
      return T(0);
    else if constexpr (Op == reduce_op::min)
      return L::has_infinity ? L::infinity() : L::max();
    else
      return L::has_infinity ? -L::infinity() : L::lowest();
  }
  static T apply(T a, T b) {
    if constexpr (Op == reduce_op::sum)
      return a + b;
    else if constexpr (Op == reduce_op::min)
      return (b < a || a != a) ? b : a;
    else
      return (a < b || a != a) ? b : a;
  }
};

/// The accumulator all three parameter types share; the launch thunk alone
/// creates them (one per thread) and reads them.
template <reduce_op Op, class T> class reducer {
#if !defined(__OFFLOAD_PLUGIN__)
  // With the plugin, its own diagnostic says this at the kernel parameter.
  static_assert(reduction_value<T>(),
                "ofld::sum, ofld::min and ofld::max take an integer type "
                "(not bool), float or double, of at most 8 bytes");
#endif
public:
  using value_type = T;
  static constexpr reduce_op op = Op;
  using traits = reduce_traits<Op, T>;

  /// Adds `v` (sum), or keeps the smaller (min) or larger (max) of the two.
  void combine(T v) { Value = traits::apply(Value, v); }

  reducer(const reducer &) = delete;
  reducer &operator=(const reducer &) = delete;

protected:
  reducer() : Value(traits::identity()) {}

private:
  friend struct reduce_access;
  T Value;
};

struct reduce_access {
  template <reduce_op Op, class T> static T &value(reducer<Op, T> &r) {
    return r.Value;
  }
};
} // namespace detail

/// A sum over the grid: `s += v` or `s.combine(v)` in the kernel.
template <class T>
class sum : public detail::reducer<detail::reduce_op::sum, T> {
public:
  sum &operator+=(T v) {
    this->combine(v);
    return *this;
  }

protected:
  sum() = default;
};
/// The smallest contribution: `m.combine(v)` in the kernel.
template <class T>
class min : public detail::reducer<detail::reduce_op::min, T> {
protected:
  min() = default;
};
/// The largest contribution: `m.combine(v)` in the kernel.
template <class T>
class max : public detail::reducer<detail::reduce_op::max, T> {
protected:
  max() = default;
};

} // namespace ofld

namespace __ofld::reduce {

/// Whether kernel parameter type `P` declares a reduction; `type` is the
/// accumulator.
template <class P> struct param {
  static constexpr bool value = false;
};
template <class T> struct param<ofld::sum<T> &> {
  static constexpr bool value = true;
  using type = ofld::sum<T>;
};
template <class T> struct param<ofld::min<T> &> {
  static constexpr bool value = true;
  using type = ofld::min<T>;
};
template <class T> struct param<ofld::max<T> &> {
  static constexpr bool value = true;
  using type = ofld::max<T>;
};
template <class... P>
inline constexpr bool any = (param<P>::value || ... || false);

/// The argument a launch takes for kernel parameter type `P`: a reduction
/// takes a modifiable lvalue of its T (`const arg_t<P>&` collapses to T&).
template <class P> struct arg {
  using type = P;
};
template <class P>
  requires param<P>::value
struct arg<P> {
  using type = typename param<P>::type::value_type &;
};
template <class P> using arg_t = typename arg<P>::type;

/// Where the partials start in a reduction's device scratch; a 64-bit
/// arrival counter is at its start (runtime/lib/Reductions.cpp
/// allocates it, zeroed; the last block zeroes the counter again).
inline constexpr std::size_t partials_offset = 256;

/// What a GPU entry passes for a reduction parameter: the variable's device
/// copy and the scratch.
struct gpu_slot {
  void *target;
  char *scratch;
};

/// Per-thread storage of one reduction parameter; other parameters are the
/// objects of the launch, as __ofld::param_at builds them.
template <std::size_t I, class P, bool = param<P>::value> struct holder {
  explicit holder(void *) {}
};
template <std::size_t I, class P> struct holder<I, P, true> {
  using acc_type = typename param<P>::type;
  using value_type = typename acc_type::value_type;
  static constexpr ofld::detail::reduce_op op = acc_type::op;
  // Only the thunk makes accumulators (their constructors are protected).
  struct acc_t : acc_type {
    acc_t() {}
  };
  acc_t Acc;
  explicit holder(void *) {}
  value_type &value() { return ofld::detail::reduce_access::value(Acc); }
};
template <class Seq, class... P> struct holders;
template <std::size_t... I, class... P>
struct holders<std::index_sequence<I...>, P...> : holder<I, P>... {
  explicit holders(void **objs) : holder<I, P>(objs[I])... {}
};

//===-- The combination tree, for the GPU and replayed on the CPU --------===//

#if defined(OFFLOAD_GPU_DEVICE)
// The epilogue runs once per thread, but its registers count for the whole
// kernel (occupancy): it keeps few values live, 32-bit where it can.

/// Lanes of a warp: NVIDIA's 32, known at compile time; AMD's wavefront.
#if defined(__NVPTX__)
using lane_mask = std::uint32_t;
constexpr std::uint32_t num_lanes() { return 32; }
#else
using lane_mask = std::uint64_t;
inline std::uint32_t num_lanes() { return __gpu_num_lanes(); }
#endif

/// The lanes of a warp of `n` threads.
inline lane_mask lanes(std::uint32_t n) {
  return n >= sizeof(lane_mask) * 8 ? ~lane_mask(0) : (lane_mask(1) << n) - 1;
}

/// Lane `lane + off`'s `v` (lanes past the warp: any value).
template <class T>
T shuffle_down(lane_mask mask, std::uint32_t lane, std::uint32_t off, T v) {
  constexpr unsigned Words = (sizeof(T) + 3) / 4;
  std::uint32_t W[Words] = {};
  __builtin_memcpy(W, &v, sizeof(T));
  for (unsigned I = 0; I < Words; ++I)
#if defined(__NVPTX__)
    W[I] = __nvvm_shfl_sync_down_i32(mask, W[I], off, 0x1f);
#else
    W[I] = __gpu_shuffle_idx_u32(mask, lane + off, W[I], num_lanes());
#endif
  __builtin_memcpy(&v, W, sizeof(T));
  (void)lane;
  return v;
}

/// Combines lanes [0, n) of a warp into lane 0 ("shuffle down" halving).
/// Every lane in `mask` calls it.
template <class Tr, class T>
T warp_tree(T v, std::uint32_t lane, std::uint32_t n, lane_mask mask) {
  for (std::uint32_t Off = num_lanes() / 2; Off; Off /= 2) {
    T Other = shuffle_down(mask, lane, Off, v);
    if (lane + Off < n)
      v = Tr::apply(v, Other);
  }
  return v;
}

/// Orders this thread's memory operations for the whole device, like CUDA's
/// __threadfence(). (LLVM 22 lowers a scoped acq_rel atomic for NVPTX
/// without its fences, and an OpenMP compile drops the device scope, so
/// NVPTX gets the membar itself.)
inline void device_fence() {
#if defined(__NVPTX__)
  __nvvm_membar_gl();
#else
  __scoped_atomic_thread_fence(__ATOMIC_SEQ_CST, __MEMORY_SCOPE_DEVICE);
#endif
}

/// Team memory of the tree: one value per warp and the last-block flag.
template <class T> T *warp_values() {
  [[clang::loader_uninitialized]] static T Storage[32];
#pragma omp allocate(Storage) allocator(omp_pteam_mem_alloc)
  return Storage;
}
inline std::uint32_t *last_block_flag() {
  [[clang::loader_uninitialized]] static std::uint32_t Flag;
#pragma omp allocate(Flag) allocator(omp_pteam_mem_alloc)
  return &Flag;
}

/// Combines the values of threads [0, n) of a block of `b` threads into
/// thread `l` == 0; every thread of the block calls it.
template <class Tr, class T>
T block_tree(T v, std::uint32_t l, std::uint32_t n, std::uint32_t b) {
  const std::uint32_t L = num_lanes(), Lane = l % L, W = l / L;
  const std::uint32_t Left = b - W * L, Valid = n > W * L ? n - W * L : 0;
  v = warp_tree<Tr>(v, Lane, Valid < L ? Valid : L, lanes(Left));
  const std::uint32_t Warps = (n + L - 1) / L;
  if (Warps == 1)
    return v;
  T *Values = warp_values<T>();
  if (Lane == 0 && W < Warps)
    Values[W] = v;
  __gpu_sync_threads();
  if (W == 0)
    v = warp_tree<Tr>(Lane < Warps ? Values[Lane] : v, Lane, Warps,
                      lanes(b < L ? b : L));
  __gpu_sync_threads();
  return v;
}

/// The block's linear number and the grid's block count.
inline std::uint64_t block_linear() {
  return __gpu_block_id_x() +
         std::uint64_t(__gpu_num_blocks_x()) *
             (__gpu_block_id_y() +
              std::uint64_t(__gpu_num_blocks_y()) * __gpu_block_id_z());
}
inline std::uint64_t grid_blocks() {
  return std::uint64_t(__gpu_num_blocks_x()) * __gpu_num_blocks_y() *
         __gpu_num_blocks_z();
}

/// The last block: every partial, in the fixed order, into the variable.
/// Inlined: a call would be compiled separately (relocatable device code),
/// with as many registers as it likes (70-86 on sm_90), and the kernel
/// would need as many -- no blocks of 1024 threads, a third of the
/// occupancy.
template <class Tr, bool EarlyOld, class T>
void gpu_last_block(const gpu_slot &slot, std::uint32_t l, std::uint32_t b) {
  // The variable may be far (pinned host memory, where the runtime does not
  // copy it): its old value loads while the partials do. Not in a kernel of
  // several reductions, whose other accumulators hold registers here too.
  T *Target = static_cast<T *>(slot.target);
  T Old{};
  if constexpr (EarlyOld)
    if (l == 0)
      Old = *Target;
  const std::uint64_t Blocks = grid_blocks();
  // Volatile loads are relaxed ones (PTX): not served from a stale L1.
  const volatile T *Partials =
      reinterpret_cast<const T *>(slot.scratch + partials_offset);
  // Thread t folds partials t, t + b, ... in order, then the tree. (Loads
  // batched ahead of the fold cost 8-10 registers for the whole kernel.)
  T a = Tr::identity();
  if (l < Blocks) {
    a = Partials[l];
    for (std::uint64_t I = l + b; I < Blocks; I += b)
      a = Tr::apply(a, T(Partials[I]));
  }
  T g = block_tree<Tr>(a, l, Blocks < b ? std::uint32_t(Blocks) : b, b);
  if (l == 0) {
    if constexpr (!EarlyOld)
      Old = *Target;
    *Target = Tr::apply(Old, g);
    __scoped_atomic_store_n(reinterpret_cast<std::uint64_t *>(slot.scratch), 0,
                            __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
  }
}

/// After the kernel body: the block's accumulators into its partial, and
/// the last block's combination of all partials into the variable.
template <class Tr, bool EarlyOld, class T>
void gpu_finish(T v, const gpu_slot &slot) {
  // No scratch: the runtime reported why; the variable keeps its value.
  if (!slot.scratch)
    return;
  const std::uint32_t Bx = __gpu_num_threads_x(), By = __gpu_num_threads_y();
  const std::uint32_t b = Bx * By * __gpu_num_threads_z();
  const std::uint32_t l = __gpu_thread_id_x() +
                          Bx * (__gpu_thread_id_y() + By * __gpu_thread_id_z());
  T r = block_tree<Tr>(v, l, b, b);
  std::uint32_t *Last = last_block_flag();
  if (l == 0) {
    reinterpret_cast<T *>(slot.scratch + partials_offset)[block_linear()] = r;
    // The partial is visible before the arrival that counts it.
    device_fence();
    std::uint64_t Ticket = __scoped_atomic_fetch_add(
        reinterpret_cast<std::uint64_t *>(slot.scratch), 1, __ATOMIC_RELAXED,
        __MEMORY_SCOPE_DEVICE);
    bool IsLast = Ticket == grid_blocks() - 1;
    // Every other block's partial is visible after the arrival of all: to
    // this thread after its fence, to the block's after the barrier (as in
    // CUDA's threadFenceReduction sample, one fence, not one per thread).
    if (IsLast)
      device_fence();
    *Last = IsLast;
  }
  __gpu_sync_threads();
  if (*Last)
    gpu_last_block<Tr, EarlyOld, T>(slot, l, b);
  // The next reduction of this kernel reuses the team memory.
  __gpu_sync_threads();
}

template <class... P, std::size_t... I>
void invoke_reducing(void (*kernel)(P...), void **objs,
                     std::index_sequence<I...> Seq);
#else
/// The GPU's tree for 32-lane warps, on `v[0, b)` (clobbered), of which the
/// first `n` are values: NVIDIA's order of combination, bit for bit.
template <class Tr, class T> T cpu_block_tree(T *v, std::uint32_t n) {
  constexpr std::uint32_t L = 32;
  const std::uint32_t Warps = (n + L - 1) / L;
  for (std::uint32_t W = 0; W < Warps; ++W) {
    T *Lane = v + W * L;
    std::uint32_t Valid = n - W * L < L ? n - W * L : L;
    // Ascending lanes read lane + Off before this step changes it, as a
    // shuffle reads every lane's value before the step.
    for (std::uint32_t Off = L / 2; Off; Off /= 2)
      for (std::uint32_t K = 0; K + Off < Valid; ++K)
        Lane[K] = Tr::apply(Lane[K], Lane[K + Off]);
  }
  if (Warps == 1)
    return v[0];
  for (std::uint32_t W = 1; W < Warps; ++W)
    v[W] = v[W * L];
  for (std::uint32_t Off = L / 2; Off; Off /= 2)
    for (std::uint32_t K = 0; K + Off < Warps; ++K)
      v[K] = Tr::apply(v[K], v[K + Off]);
  return v[0];
}

/// The last block's part, on `Folds` (one slot per thread of a block of
/// `b`): the result `r` of block `Block` goes to slot Block % b, folded in
/// block order, as thread t of the last block folds partials t, t + b, ...
template <class Tr, class T>
void cpu_fold_block(T *Folds, std::uint32_t b, std::uint64_t Block, T r) {
  T &F = Folds[Block % b];
  F = Block < b ? r : Tr::apply(F, r);
}
/// The grid's result once all `Blocks` (> 0) were folded.
template <class Tr, class T>
T cpu_grid_result(T *Folds, std::uint32_t b, std::uint64_t Blocks) {
  return cpu_block_tree<Tr>(Folds, Blocks < b ? std::uint32_t(Blocks) : b);
}
#endif

} // namespace __ofld::reduce

#endif // OFFLOAD_REDUCTION_HPP
