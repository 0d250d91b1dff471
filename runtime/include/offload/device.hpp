//===- offload/device.hpp - the device-side index API -----------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// What kernel code calls: thread and block indices, block barriers, warp
// functions, block-shared arrays and atomics. On NVPTX and AMDGPU these are
// clang's <gpuintrin.h>, team-shared memory and hardware atomics; on the CPU
// (host offload target, host fallback, builds without the plugin) they work
// on the state of the grid emulation in detail/cpu_grid.hpp, which runs the
// threads of a block as fibers once one of them waits at a barrier or a warp
// function.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_DEVICE_HPP
#define OFFLOAD_DEVICE_HPP

#include "offload/launch.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#if defined(__NVPTX__) || defined(__AMDGPU__)
#define OFFLOAD_GPU_DEVICE 1
#include <gpuintrin.h>
// omp_pteam_mem_alloc, which places shared_array storage in team memory.
#include <omp.h>
#else
#include <cstdio>
#include <cstdlib>
#endif
// <atomic> only where atomic_add needs std::atomic_ref (g++): it brings
// <string> and <system_error> along, a fifth of the front end's time for a
// small translation unit that includes this header.
#if !defined(__clang__) || !defined(__MEMORY_SCOPE_DEVICE)
#include <atomic>
#endif
#if !defined(__clang__)
#include <cstring>
#include <source_location>
#endif

namespace ofld {

namespace detail {
struct cpu_grid_state;
/// The CPU grid's barrier and shared-array lookup. The grid runner installs
/// them for the duration of a grid, so kernel code needs no symbol of the
/// runtime library (programs that emulate grids themselves leave them null).
using cpu_barrier_fn = void (*)(cpu_grid_state *);
using cpu_shared_fn = void *(*)(cpu_grid_state *, const void *key,
                                std::size_t bytes, std::size_t align);
/// The CPU grid's warp exchange: the calling lane's value goes into the
/// returned buffer of 32 (one per lane of its warp), which holds every
/// lane's value once the call returns (warp functions, below).
using cpu_warp_fn = const std::uint64_t *(*)(cpu_grid_state *,
                                             std::uint64_t value);
/// One access to a shared_array element under OFFLOAD_CHECK=shared.
struct cpu_access {
  const void *array;
  std::size_t elem_bytes, count, index;
  const char *file, *function, *decl_file;
  unsigned line, decl_line;
};
/// The checker of OFFLOAD_CHECK=shared; a null access ends a block.
using cpu_access_fn = void (*)(cpu_grid_state *, const cpu_access *);

/// State of the CPU grid emulation, one per OS thread: the host offload
/// target and host fallback run every (block, thread) pair through the
/// kernel body. Trivially copyable and valid when zero-filled; every member
/// has an initialiser so that a thread_local of it needs no init call.
struct cpu_grid_state {
  dim3 grid, block, block_id, thread_id;
  cpu_barrier_fn barrier = nullptr;
  cpu_shared_fn shared = nullptr;
  /// The running kernel, type-erased, for the threads that start as fibers.
  void (*run_thread)(void *) = nullptr;
  void *run_ctx = nullptr;
  /// Nonzero while the current block runs its threads as fibers.
  std::uint32_t fibers = 0;
  /// The grid runner's scheduler of this OS thread, once it needed one.
  void *scheduler = nullptr;
  cpu_warp_fn warp = nullptr;
  /// Set by the shared-array lookup while OFFLOAD_CHECK=shared is on.
  cpu_access_fn access = nullptr;
  /// The running kernel, for the checker's messages (null: unknown).
  const void *kernel = nullptr;
  /// The block's dynamic shared memory (ofld::dynamic_shared): the launch's
  /// .shared_bytes, one buffer for the blocks run on this OS thread.
  void *dyn_shared = nullptr;
  std::size_t dyn_shared_bytes = 0;
};
#if defined(_OPENMP) && !defined(OFFLOAD_GPU_DEVICE)
} // namespace detail
} // namespace ofld
// OpenMP forbids thread_local in target code, and a host-offload image is a
// separate shared object: both reach the state through the runtime library.
// `const`: the address is fixed for an OS thread (fibers never change
// threads), so a kernel asks once, not at every index call, and the launch
// parameters need not be reloaded around the calls.
// Declared by the ABI table (offload/abi.hpp); the redeclaration adds
// `const`.
extern "C" [[gnu::const]] ofld::detail::cpu_grid_state *__ofld_cpu_state();
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
  return dim == 0   ? __gpu_thread_id_x()
         : dim == 1 ? __gpu_thread_id_y()
                    : __gpu_thread_id_z();
}
inline std::uint32_t block_id(int dim = 0) {
  return dim == 0   ? __gpu_block_id_x()
         : dim == 1 ? __gpu_block_id_y()
                    : __gpu_block_id_z();
}
inline std::uint32_t block_dim(int dim = 0) {
  return dim == 0   ? __gpu_num_threads_x()
         : dim == 1 ? __gpu_num_threads_y()
                    : __gpu_num_threads_z();
}
inline std::uint32_t grid_dim(int dim = 0) {
  return dim == 0   ? __gpu_num_blocks_x()
         : dim == 1 ? __gpu_num_blocks_y()
                    : __gpu_num_blocks_z();
}
/// Waits until every thread of the block arrived here; memory written by
/// the block before it is visible to the block after it.
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
/// Waits until every thread of the block arrived here. On the CPU the
/// thread gives way to the block's other threads (fibers); a thread that
/// already returned counts as arrived.
inline void sync_threads() {
  detail::cpu_grid_state &G = detail::cpu_grid_ref();
  if (G.barrier)
    G.barrier(&G);
}
#endif

/// The x/y/z global thread index: block_id * block_dim + thread_id.
inline std::size_t global_id(int dim = 0) {
  return std::size_t(block_id(dim)) * block_dim(dim) + thread_id(dim);
}

//===-- Warp-level functions ---------------------------------------------===//
//
// Every lane of the warp takes part, as in CUDA's *_sync functions with a
// full mask: 32 lanes on NVIDIA and the CPU paths, 64 on AMD. A lane beyond
// the block's last thread (a partial last warp) gives 0 to a shuffle and
// false to a ballot. On the CPU a warp function is an exchange point of the
// fiber scheduler (detail/cpu_grid.hpp): every lane of the warp reaches it
// before any leaves it.

namespace detail {
/// The value types the shuffles move: 4 or 8 bytes, trivially copyable.
template <class T>
inline constexpr bool warp_value =
    std::is_trivially_copyable_v<T> && (sizeof(T) == 4 || sizeof(T) == 8);
} // namespace detail

#if defined(OFFLOAD_GPU_DEVICE)
/// Lanes in a warp: 32 on NVIDIA, 64 on AMD.
inline std::uint32_t warp_size() { return __gpu_num_lanes(); }
/// This thread's lane in its warp.
inline std::uint32_t lane_id() { return __gpu_lane_id(); }
/// Waits until every lane of the warp arrived here; memory the warp wrote
/// before it is visible to the warp after it.
inline void sync_warp() { __gpu_sync_lane(__gpu_lane_mask()); }
/// A bit per lane of the warp: set where `pred` holds.
inline std::uint64_t ballot(bool pred) {
  return __gpu_ballot(__gpu_lane_mask(), pred);
}
/// Whether `pred` holds on any lane, on every lane of the warp.
inline bool any(bool pred) { return ballot(pred) != 0; }
inline bool all(bool pred) { return ballot(pred) == __gpu_lane_mask(); }
namespace detail {
/// `v` of lane `src` (in [0, warp_size())).
template <class T> inline T warp_read(T v, std::uint32_t src) {
  static_assert(warp_value<T>, "ofld::shfl moves trivially copyable values "
                               "of 4 or 8 bytes");
  // (Only the assertion's message where it fails.)
  if constexpr (!warp_value<T>)
    return v;
  else if constexpr (sizeof(T) == 4)
    return __builtin_bit_cast(
        T, __gpu_shuffle_idx_u32(__gpu_lane_mask(), src,
                                 __builtin_bit_cast(std::uint32_t, v),
                                 __gpu_num_lanes()));
  else
    return __builtin_bit_cast(
        T, __gpu_shuffle_idx_u64(__gpu_lane_mask(), src,
                                 __builtin_bit_cast(std::uint64_t, v),
                                 __gpu_num_lanes()));
}
} // namespace detail
#else
namespace detail {
inline constexpr std::uint32_t cpu_warp_lanes = 32;
[[noreturn]] inline void cpu_warp_unavailable() {
#if defined(_OPENMP) && !defined(__clang__)
  std::printf("offload: an ofld:: warp function used outside a grid of the "
              "offload CPU emulation, or in the OpenMP teams form on a GPU\n");
#else
  std::fputs("offload: an ofld:: warp function used outside a grid of the "
             "offload CPU emulation, or in the OpenMP teams form on a GPU\n",
             stderr);
#endif
  std::abort();
}
inline std::uint32_t cpu_linear_thread(const cpu_grid_state &G) {
  return G.thread_id.x +
         G.block.x * (G.thread_id.y + G.block.y * G.thread_id.z);
}
/// The lanes of the calling thread's warp that are threads of the block.
inline std::uint64_t cpu_warp_mask(const cpu_grid_state &G) {
  std::uint32_t N = G.block.x * G.block.y * G.block.z;
  std::uint32_t First = cpu_linear_thread(G) / cpu_warp_lanes * cpu_warp_lanes;
  std::uint32_t Lanes = N - First < cpu_warp_lanes ? N - First : cpu_warp_lanes;
  return Lanes == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << Lanes) - 1;
}
/// Every lane's `value`, once all lanes of the warp called this.
inline const std::uint64_t *cpu_warp_exchange(std::uint64_t value) {
  cpu_grid_state &G = cpu_grid_ref();
  if (!G.warp)
    cpu_warp_unavailable();
  return G.warp(&G, value);
}
template <class T> inline T warp_read(T v, std::uint32_t src) {
  static_assert(warp_value<T>, "ofld::shfl moves trivially copyable values "
                               "of 4 or 8 bytes");
  using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  // (Only the assertion's message where it fails.)
  if constexpr (!warp_value<T>) {
    return v;
  } else {
    const std::uint64_t *All = cpu_warp_exchange(__builtin_bit_cast(Bits, v));
    bool Exists = cpu_warp_mask(cpu_grid_ref()) >> src & 1;
    return __builtin_bit_cast(T, Exists ? Bits(All[src]) : Bits(0));
  }
}
} // namespace detail
inline std::uint32_t warp_size() { return detail::cpu_warp_lanes; }
inline std::uint32_t lane_id() {
  return detail::cpu_linear_thread(detail::cpu_grid_ref()) %
         detail::cpu_warp_lanes;
}
inline void sync_warp() { detail::cpu_warp_exchange(0); }
inline std::uint64_t ballot(bool pred) {
  const std::uint64_t *All = detail::cpu_warp_exchange(pred);
  std::uint64_t Mask = detail::cpu_warp_mask(detail::cpu_grid_ref()), Bits = 0;
  for (std::uint32_t L = 0; L < detail::cpu_warp_lanes; ++L)
    Bits |= std::uint64_t(All[L] != 0) << L;
  return Bits & Mask;
}
inline bool any(bool pred) { return ballot(pred) != 0; }
inline bool all(bool pred) {
  return ballot(pred) == detail::cpu_warp_mask(detail::cpu_grid_ref());
}
#endif

/// Lane `lane`'s `v` (`lane` taken modulo warp_size()).
template <class T> inline T shfl(T v, std::uint32_t lane) {
  return detail::warp_read(v, lane % warp_size());
}
/// The `v` of the lane `delta` below this one; a lane below `delta` keeps
/// its own.
template <class T> inline T shfl_up(T v, std::uint32_t delta) {
  std::uint32_t L = lane_id();
  return detail::warp_read(v, L >= delta ? L - delta : L);
}
/// The `v` of the lane `delta` above this one; a lane whose source would be
/// past the warp's last lane keeps its own.
template <class T> inline T shfl_down(T v, std::uint32_t delta) {
  std::uint32_t L = lane_id();
  return detail::warp_read(v, delta < warp_size() - L ? L + delta : L);
}
/// The `v` of lane `lane_id() ^ mask` (modulo warp_size()).
template <class T> inline T shfl_xor(T v, std::uint32_t mask) {
  return detail::warp_read(v, (lane_id() ^ mask) % warp_size());
}

//===-- Block-shared arrays ----------------------------------------------===//

namespace detail {
#if !defined(OFFLOAD_GPU_DEVICE)
[[noreturn]] inline void cpu_shared_unavailable() {
#if defined(_OPENMP) && !defined(__clang__)
  // g++ compiles this for its offload targets too, which have no stderr.
  std::printf("offload: ofld::shared_array used outside a grid of the offload "
              "CPU emulation (a kernel launched through offload())\n");
#else
  std::fputs("offload: ofld::shared_array used outside a grid of the offload "
             "CPU emulation (a kernel launched through offload())\n",
             stderr);
#endif
  std::abort();
}
/// The CPU buffer of the shared array named `Key`: the grid runner hands out
/// one per array and OS thread, so grids that run at the same time on
/// different threads do not share it.
template <class T, std::size_t N> T *cpu_shared(const void *Key) {
  cpu_grid_state &G = cpu_grid_ref();
  if (!G.shared)
    cpu_shared_unavailable();
  return static_cast<T *>(G.shared(&G, Key, sizeof(T) * N, alignof(T)));
}
/// A shared_array index on the CPU, with the place of the access for
/// OFFLOAD_CHECK=shared: operator[] takes one argument, so the default
/// arguments of this conversion capture the place (that of the index
/// expression).
struct shared_index {
  std::size_t i;
  const char *file, *function;
  unsigned line;
  shared_index(std::size_t I, const char *File = __builtin_FILE(),
               const char *Function = __builtin_FUNCTION(),
               unsigned Line = __builtin_LINE())
      : i(I), file(File), function(Function), line(Line) {}
};
#endif
} // namespace detail

// Internal linkage, storage included: clang numbers the default tags'
// lambdas per translation unit, so with external linkage the linker would
// merge different files' arrays of the same T and N.
inline namespace {
/// `N` objects of type `T` that all threads of a block share; every block
/// has its own. Declare it in the kernel (or a function it calls):
///
///   ofld::shared_array<float, 256> tile;
///   tile[ofld::thread_id()] = x[ofld::global_id()];
///   ofld::sync_threads();
///
/// Like CUDA's __shared__, the contents are unspecified when a block starts
/// (the CPU fills fresh storage with 0xff bytes), no constructor runs, and
/// another thread's writes are visible to the block after sync_threads().
///
/// Each use site is a distinct array: the default `Tag` is the type of a
/// lambda, unique per use. Inside a template, a use that does not depend on
/// the template's parameters is one array for all its instantiations; name a
/// local tag to get one per instantiation:
///
///   ofld::shared_array<float, 256, struct tile_tag> tile;
///
/// The object is a handle (a pointer; on the CPU also the declaration's
/// place, for OFFLOAD_CHECK=shared); copies refer to the same array.
#if defined(__clang__)
template <class T, std::size_t N, class Tag = decltype([] {})>
#else
// g++ 12 miscompiles (or crashes on) a lambda in a default template argument
// used inside a template. Only CPU builds use g++: there the default names
// the array by its use site (and instantiation) instead.
template <class T, std::size_t N, class Tag = void>
#endif
class shared_array {
  static_assert(N > 0, "ofld::shared_array needs at least one element");
  static_assert(std::is_trivially_default_constructible_v<T> &&
                    std::is_trivially_destructible_v<T>,
                "ofld::shared_array elements are never constructed or "
                "destroyed: use a trivial type");

public:
#if defined(OFFLOAD_GPU_DEVICE)
  shared_array() : Data(storage()) {}
#elif defined(__clang__)
  shared_array(const char *File = __builtin_FILE(),
               unsigned Line = __builtin_LINE())
      : Data(storage()), Check(detail::cpu_grid_ref().access), DeclFile(File),
        DeclLine(Line) {}
#elif defined(_OPENMP)
  // g++ -fopenmp: the constant behind std::source_location is not placed in
  // offloaded code, so name the use site by its file and line (two arrays
  // declared on one line need tags; offload-rewrite gives every array one).
  shared_array(const char *File = __builtin_FILE(),
               unsigned Line = __builtin_LINE())
      : Data(std::is_void_v<Tag> ? storage(siteKey(File, Line)) : storage()),
        Check(detail::cpu_grid_ref().access), DeclFile(File), DeclLine(Line) {}
#else
  shared_array(std::source_location Site = std::source_location::current())
      : Data(std::is_void_v<Tag> ? storage(Site) : storage()),
        Check(detail::cpu_grid_ref().access), DeclFile(Site.file_name()),
        DeclLine(Site.line()) {}
#endif

#if defined(OFFLOAD_GPU_DEVICE)
  T &operator[](std::size_t I) const { return Data[I]; }
#else
  /// On the CPU, under OFFLOAD_CHECK=shared, every access through here is
  /// checked against the other threads' since the last barrier.
  T &operator[](detail::shared_index I) const {
    if (Check) [[unlikely]] {
      const detail::cpu_access A{Data,       sizeof(T), N,      I.i,     I.file,
                                 I.function, DeclFile,  I.line, DeclLine};
      Check(&detail::cpu_grid_ref(), &A);
    }
    return Data[I.i];
  }
#endif
  T *data() const { return Data; }
  T *begin() const { return Data; }
  T *end() const { return Data + N; }
  static constexpr std::size_t size() { return N; }

private:
  /// The array of this Tag. On GPUs a static in team memory (addrspace 3
  /// on NVPTX and AMDGPU): OpenMP's pteam allocator makes clang give every
  /// team its own copy, like CUDA's __shared__.
  static T *storage() {
#if defined(OFFLOAD_GPU_DEVICE)
    // Uninitialised (undef), as team memory is: AMDGPU rejects a zero
    // initialiser there and would then not lower the array in called
    // functions.
    [[clang::loader_uninitialized]] static T Storage[N];
#pragma omp allocate(Storage) allocator(omp_pteam_mem_alloc)
    return Storage;
#else
    static char Key; // its address names this array
    return detail::cpu_shared<T, N>(&Key);
#endif
  }
#if !defined(__clang__) && defined(_OPENMP)
  /// The file name is one literal per translation unit: a key per line.
  static const void *siteKey(const char *File, unsigned Line) {
    return reinterpret_cast<const void *>(
        reinterpret_cast<std::uintptr_t>(File) + Line);
  }
  static T *storage(const void *Key) { return detail::cpu_shared<T, N>(Key); }
#elif !defined(__clang__)
  static T *storage(const std::source_location &Site) {
    // libstdc++'s source_location is the address of a constant unique to
    // the use site and the function around it.
    static_assert(sizeof(Site) == sizeof(const void *));
    const void *Key;
    std::memcpy(&Key, &Site, sizeof(Key));
    return detail::cpu_shared<T, N>(Key);
  }
#endif
  T *Data;
#if !defined(OFFLOAD_GPU_DEVICE)
  /// The checker, where OFFLOAD_CHECK=shared was on when the array was
  /// looked up (the lookup installs it), and the declaration's place.
  detail::cpu_access_fn Check;
  const char *DeclFile;
  unsigned DeclLine;
#endif
};
} // namespace

//===-- Dynamic shared memory --------------------------------------------===//

#if defined(OFFLOAD_GPU_DEVICE)
namespace detail {
// The block's dynamic shared memory: an array of unknown size in shared
// memory (addrspace 3), as CUDA's `extern __shared__`. NVPTX declares it
// `.extern .shared .align 16`, AMDGPU places it after the static LDS; the
// launch gives its size. (Not declare target: a translation unit that does
// not use it then declares nothing.)
extern "C" __attribute__((address_space(3))) alignas(
    16) unsigned char __ofld_dynamic_shared[];
/// Its size in bytes, as the launch gave it.
inline std::size_t dynamic_shared_bytes() {
#if defined(__NVPTX__)
  std::uint32_t Bytes;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(Bytes));
  return Bytes;
#else
  // The dispatch packet's group_segment_size (hsa_kernel_dispatch_packet_t,
  // byte 28) holds static and dynamic LDS.
  auto *Packet =
      static_cast<const std::uint32_t *>(__builtin_amdgcn_dispatch_ptr());
  return Packet[7] - __builtin_amdgcn_groupstaticsize();
#endif
}
} // namespace detail
#endif

/// The block's dynamic shared memory as `T`s: `n / sizeof(T)` of them for a
/// launch with `ofld::launch{.shared_bytes = n}` (none without), aligned to
/// 16 bytes. Every call in a block, whatever its `T`, returns the same
/// memory, shared by the block's threads like an ofld::shared_array (its
/// contents unspecified when the block starts; another thread's writes are
/// visible after sync_threads()):
///
///   std::span<float> tile = ofld::dynamic_shared<float>();
template <class T> inline std::span<T> dynamic_shared() {
  static_assert(std::is_trivially_default_constructible_v<T> &&
                    std::is_trivially_destructible_v<T> && alignof(T) <= 16,
                "ofld::dynamic_shared<T>: T must be a trivial type aligned to "
                "at most 16 bytes");
#if defined(OFFLOAD_GPU_DEVICE)
  // (A C-style cast: it alone converts to the generic address space.)
  return {(T *)detail::__ofld_dynamic_shared,
          detail::dynamic_shared_bytes() / sizeof(T)};
#else
  const detail::cpu_grid_state &G = detail::cpu_grid_ref();
  return {static_cast<T *>(G.dyn_shared), G.dyn_shared_bytes / sizeof(T)};
#endif
}

//===-- Atomics
//------------------------------------------------------------===//

namespace detail {
template <class T>
inline constexpr bool atomic_add_type =
    std::is_same_v<T, int> || std::is_same_v<T, unsigned> ||
    std::is_same_v<T, long> || std::is_same_v<T, unsigned long> ||
    std::is_same_v<T, long long> || std::is_same_v<T, unsigned long long> ||
    std::is_same_v<T, float> || std::is_same_v<T, double>;
} // namespace detail

/// Adds `v` to `*p` atomically (relaxed order, device scope) and returns the
/// old value. `p` may point to global memory or into a shared_array.
/// std::atomic_ref works in kernels too, GPUs included, but its float and
/// double fetch_add loop on compare-and-swap there; this is one hardware
/// atomic (atom.add.f32/f64 on sm_90, global_atomic_add_f64 on gfx90a).
template <class T> inline T atomic_add(T *p, std::type_identity_t<T> v) {
  static_assert(detail::atomic_add_type<T>,
                "ofld::atomic_add takes int, unsigned, long, unsigned long, "
                "long long, unsigned long long, float or double");
#if defined(__clang__) && defined(__MEMORY_SCOPE_DEVICE)
  return __scoped_atomic_fetch_add(p, v, __ATOMIC_RELAXED,
                                   __MEMORY_SCOPE_DEVICE);
#elif defined(_OPENMP)
  // Other OpenMP compilers (g++, also offloading): OpenMP's own atomic.
  T Old;
#pragma omp atomic capture
  {
    Old = *p;
    *p += v;
  }
  return Old;
#else
  // g++: its __atomic builtins take no floating-point types.
  return std::atomic_ref<T>(*p).fetch_add(v, std::memory_order_relaxed);
#endif
}

} // namespace ofld

#endif // OFFLOAD_DEVICE_HPP
