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
// The launch-shape and device rules here must agree with the plugin's
// runtime (runtime/lib/Runtime.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_OMP_BRIDGE_HPP
#define OFFLOAD_OMP_BRIDGE_HPP

// Rewritten code never calls the CPU fallback's offload(); don't announce it.
#ifndef OFFLOAD_QUIET_CPU_FALLBACK
#define OFFLOAD_QUIET_CPU_FALLBACK 1
#endif
// The CPU grid's fiber scheduler inline (detail/cpu_grid.hpp). GCC streams
// top-level asm into its offload compilations too, so there the fibers
// switch with ucontext instead of the scheduler's x86-64 assembly.
#ifndef OFFLOAD_CPU_GRID_INLINE
#define OFFLOAD_CPU_GRID_INLINE 1
#endif
#if defined(_OPENMP) && defined(__GNUC__) && !defined(__clang__) &&            \
    !defined(OFFLOAD_CPU_FIBERS_UCONTEXT)
#define OFFLOAD_CPU_FIBERS_UCONTEXT 1
#endif

/// Which form of the target construct the rewritten calls use: LLVM's bare
/// teams where the compiler has them (the multi-dimensional num_teams and
/// thread_limit of `ompx_bare` came with clang 20; clang 19 refuses them),
/// else standard OpenMP teams. Define it to 0 to build the standard form
/// with clang (host and host offload target; clang's GPU targets need the
/// bare form).
#ifndef OFFLOAD_BRIDGE_BARE
#if defined(__clang__) && __clang_major__ >= 20
#define OFFLOAD_BRIDGE_BARE 1
#else
#define OFFLOAD_BRIDGE_BARE 0
#endif
#endif

/// The league and team clauses of a rewritten call's construct
/// `#pragma omp target teams OFFLOAD_BRIDGE_GRID(G) ...` (OpenMP replaces
/// macros in directives): a kernel's grid and block for the bare form, the
/// league and team size asked for in the standard form.
#if OFFLOAD_BRIDGE_BARE
#define OFFLOAD_BRIDGE_GRID(G)                                                 \
  ompx_bare num_teams((G).hw[0], (G).hw[1], (G).hw[2])                         \
      thread_limit((G).hw[3], (G).hw[4], (G).hw[5])
#else
#define OFFLOAD_BRIDGE_GRID(G) num_teams((G).teams) thread_limit((G).threads)
#endif

/// offload-rewrite's tag for an ofld::shared_array declared without one:
/// `ofld::shared_array<float, 256 OFFLOAD_BRIDGE_TAG(name)>`. g++ names an
/// untagged array by its file and line (device.hpp), which would merge two
/// arrays declared on one line; a tag declared in the function keeps them
/// apart (one per instantiation, as g++ names them without OpenMP). clang
/// names untagged arrays by their use site already.
#if defined(__GNUC__) && !defined(__clang__)
#define OFFLOAD_BRIDGE_TAG(Name) , struct Name
#else
#define OFFLOAD_BRIDGE_TAG(Name)
#endif

/// offload-rewrite's line after the class (or the definition) of a static
/// data member that device code reads: `OFFLOAD_BRIDGE_DEVICE_MEMBER(S::m)`.
/// g++ 12 gives the device a copy of such a member only when a `declare
/// target to(...)` names it (its class in declare target is not enough);
/// clang has it from the class's brackets, and would warn about naming a
/// member after its first use.
/// g++ checks access in the directive: members that are not public are
/// named in a struct that their classes befriend,
/// `OFFLOAD_BRIDGE_DEVICE_MEMBERS(__ofld_device_members_S, S::m, ...)` after
/// the class (and the definitions), `OFFLOAD_BRIDGE_DEVICE_FRIEND(...)` in
/// each enclosing class.
#if defined(_OPENMP) && defined(__GNUC__) && !defined(__clang__)
#define OFFLOAD_BRIDGE_PRAGMA(Text) _Pragma(#Text)
#define OFFLOAD_BRIDGE_DEVICE_MEMBER(...)                                      \
  OFFLOAD_BRIDGE_PRAGMA(omp declare target to(__VA_ARGS__))
#define OFFLOAD_BRIDGE_DEVICE_FRIEND(Struct) friend struct Struct;
#define OFFLOAD_BRIDGE_DEVICE_MEMBERS(Struct, ...)                             \
  struct Struct {                                                              \
    OFFLOAD_BRIDGE_DEVICE_MEMBER(__VA_ARGS__)                                  \
  };
#else
#define OFFLOAD_BRIDGE_DEVICE_MEMBER(...)
#define OFFLOAD_BRIDGE_DEVICE_FRIEND(Struct)
#define OFFLOAD_BRIDGE_DEVICE_MEMBERS(Struct, ...)
#endif

#if defined(_OPENMP) && __has_include(<omp.h>)
#include <omp.h>
#elif defined(_OPENMP)
// Some installations (clang 19 without libomp-19-dev) have no omp.h.
extern "C" {
int omp_get_team_num(void);
int omp_get_num_teams(void);
int omp_get_thread_num(void);
int omp_get_num_threads(void);
int omp_get_num_devices(void);
int omp_get_default_device(void);
int omp_get_initial_device(void);
int omp_get_num_procs(void);
int omp_is_initial_device(void);
// In libomptarget, which host-only LLVM builds do not link.
void *omp_target_alloc(__SIZE_TYPE__, int) __attribute__((weak));
void omp_target_free(void *, int) __attribute__((weak));
int omp_target_is_present(const void *, int) __attribute__((weak));
int omp_target_memcpy(void *, const void *, __SIZE_TYPE__, __SIZE_TYPE__,
                      __SIZE_TYPE__, int, int) __attribute__((weak));
int omp_target_associate_ptr(const void *, const void *, __SIZE_TYPE__,
                             __SIZE_TYPE__, int) __attribute__((weak));
int omp_target_disassociate_ptr(const void *, int) __attribute__((weak));
}
#endif

#if defined(_OPENMP) && defined(__clang__) && !defined(OFFLOAD_GPU_DEVICE)
// The device memory routines are libomptarget's, which clang links only
// with offload targets: weak, so that programs without them link (they
// have no device, and never call them).
extern "C" {
void *omp_target_alloc(__SIZE_TYPE__, int) __attribute__((weak));
void omp_target_free(void *, int) __attribute__((weak));
int omp_target_is_present(const void *, int) __attribute__((weak));
}
#endif

#if defined(_OPENMP) && defined(__GNUC__) && !defined(__clang__)
#include <assert.h>
// g++'s NVPTX offloading has no __assert_fail, which glibc's assert() calls
// (newlib's is __assert_func): in device code a failing assertion reports
// once for the program, in glibc's words, as the plugin's GPU code does
// through CUDA's __assertfail, and stops the kernel. (Kept: the variant is
// named only in the device compilation.)
#pragma omp declare target
inline unsigned __ofld_assert_reported = 0;
[[noreturn, gnu::used]] inline void
__ofld_assert_fail_device(const char *Expr, const char *File, unsigned Line,
                          const char *Function) noexcept {
  if (__atomic_exchange_n(&__ofld_assert_reported, 1u, __ATOMIC_RELAXED) == 0)
    __builtin_printf("%s:%u: %s: Assertion `%s' failed.\n", File, Line,
                     Function, Expr);
  __builtin_trap();
}
#pragma omp end declare target
#pragma omp declare variant(__ofld_assert_fail_device)                         \
    match(device = {arch(nvptx)})
extern "C" void __assert_fail(const char *, const char *, unsigned int,
                              const char *) noexcept
    __attribute__((__noreturn__));
#endif

#include "offload/detail/capacity.hpp"
#include "offload/offload.hpp"

#if defined(_OPENMP) && !defined(OFFLOAD_GPU_DEVICE) &&                        \
    !defined(OFFLOAD_CPU_SCHEDULER)
#error "include <offload/omp_bridge.hpp> before <offload/offload.hpp>"
#endif
#if defined(OFFLOAD_GPU_DEVICE) && !OFFLOAD_BRIDGE_BARE
#error "clang's GPU targets need OFFLOAD_BRIDGE_BARE (clang 19 or later)"
#endif

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <type_traits>
#include <vector>

// The kernels keep their [[offload::kernel]] attributes; without the plugin
// they mean nothing, also in device compilations (where cpu_fallback.hpp,
// which silences them on the host, is not included).
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wunknown-attributes"
// The transfer table decides what a kernel's parameter needs, as for the
// plugin: std::pair, std::tuple and std::array of trivially copyable types
// are copied as bytes (clang warns that they are not trivially copyable).
#pragma clang diagnostic ignored "-Wopenmp-mapping"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wattributes"
#endif

#if defined(_OPENMP) && !defined(OFFLOAD_GPU_DEVICE)
#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <mutex>
#include <string>
#include <strings.h>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>
#if defined(__clang__)
// Only in LLVM's libomptarget (an OpenMP 6.0 routine); weak, so that
// programs built by other compilers, or without offload targets, link.
extern "C" const char *omp_get_uid_from_device(int) __attribute__((weak));
#endif
#endif

namespace ofld::bridge {

/// Where a rewritten call is, for messages: "offload: kernel 'k' at f:l: ...";
/// `flags`: what offload-rewrite knew about it (below).
struct site {
  const char *kernel;
  const char *file;
  unsigned line;
  unsigned flags = 0;
  /// The bytes of the large by-value objects the kernel modifies: each
  /// kernel thread copies them into its parameters (on the stack).
  std::size_t copies = 0;
};
/// The kernel calls sync_threads() or uses a shared_array.
inline constexpr unsigned synchronises = 1;
/// offload-rewrite warned that the call writes into memory an ofld::region
/// maps to the device only: no warning at run time (as the plugin's
/// compile-time warning).
inline constexpr unsigned warned_const = 2;

#if defined(_OPENMP) && !defined(OFFLOAD_GPU_DEVICE)
/// Host functions of the CPU grid, handed to target regions by address: the
/// region may be device code (GCC compiles it for the GPU too) or live in
/// another module (clang's host offload image).
struct cpu_hooks {
  ofld::detail::cpu_grid_state *(*state)();
  ofld::detail::cpu_barrier_fn barrier;
  void (*finish)(ofld::detail::cpu_grid_state *);
  ofld::detail::cpu_shared_fn shared;
};
#else
struct cpu_hooks;
#endif

/// The launch of one rewritten call; copied into the target region.
struct grid {
  /// The logical grid (x, y, z) and block (x, y, z) the kernel observes.
  std::uint32_t dims[6];
  /// Bare form: num_teams (x, y, z) and thread_limit (x, y, z).
  std::uint32_t hw[6];
  /// Teams form: the league and team size asked for.
  std::uint32_t teams, threads;
  /// The OpenMP device number.
  int device;
  /// The region runs on a CPU: emulate the grid there.
  bool cpu;
  /// The device the launch was meant for where it runs on the host instead
  /// (its data may be held there); -1 otherwise.
  int moved_from;
  const cpu_hooks *hooks;
  /// Teams form on a device: one grid state per (team, thread), in device
  /// memory.
  ofld::detail::cpu_grid_state *slots;
  /// The call, for messages.
  site at;
  /// `.nowait`: errors found before the construct wait for the next point
  /// that waits, on queue `queue` (index among the device's, 0: default).
  bool nowait;
  int queue;
};

/// A std::span parameter of a kernel (or of a function a kernel calls), as
/// offload-rewrite writes it: the span by value, except for GCC, which
/// refuses by-value parameters of class types with static data members
/// (std::span::extent) in device code ("does not have a mappable type",
/// OpenMP 4.5's rule). A const reference to a span reads the same elements.
#if defined(__GNUC__) && !defined(__clang__)
template <class T, std::size_t E = std::dynamic_extent>
using span_param = const std::span<T, E> &;
#else
template <class T, std::size_t E = std::dynamic_extent>
using span_param = std::span<T, E>;
#endif

/// A large by-value parameter of a kernel that the kernel never modifies,
/// as offload-rewrite writes it: the launch maps the object to the device,
/// and the kernel reads it there, as under the plugin. A const reference
/// for g++, whose NVPTX code keeps a thread's by-value copy on libgomp's
/// stack (128 KiB per warp); the type itself elsewhere.
#if defined(__GNUC__) && !defined(__clang__)
template <class T> using value_param = const T &;
#else
template <class T> using value_param = T;
#endif

/// Parameter `I` of a kernel, as a type: `decltype(param<I>(kernel))`. The
/// rewriter uses it where a parameter type cannot be spelled at the call.
template <std::size_t I, class P0, class... P> struct nth {
  using type = typename nth<I - 1, P...>::type;
};
template <class P0, class... P> struct nth<0, P0, P...> {
  using type = P0;
};
template <std::size_t I, class... P>
auto param(void (*)(P...)) -> typename nth<I, P...>::type;

/// A mapped span rebuilt inside the region from the device address of its
/// data (the span object itself holds the host address).
template <class S>
std::remove_cvref_t<S> view(const S &Host,
                            typename std::remove_cvref_t<S>::pointer Data) {
  return std::remove_cvref_t<S>(Data, Host.size());
}

/// One mapped argument, for the overlap check of `aliases`.
enum map_kind : unsigned char { to = 1, from = 2, tofrom = 3 };
/// `name`: the argument as the call spells it, for messages.
struct range {
  const void *data;
  std::size_t bytes;
  map_kind kind;
  const char *name;
};
template <class T>
range mapped(const T *Data, std::size_t Count, map_kind K,
             const char *Name = "argument") {
  return {Data, Count * sizeof(T), K, Name};
}

/// A reduction parameter (`ofld::sum<T>&`, min, max) of a rewritten call:
/// every kernel thread's accumulator comes back (`data()`, mapped from the
/// device, one value per thread in linear order), and `fold` combines them
/// on the host in the order of reduction.hpp -- the plugin's result, bit for
/// bit, without OpenMP's reduction clause, which neither the bare form (no
/// device runtime) nor a team-generic grid can use.
template <class R> class reduction {
public:
  using value_type = typename R::value_type;
  using traits = ofld::detail::reduce_traits<R::op, value_type>;

  explicit reduction(const grid &G)
      : Block(G.dims[3] * G.dims[4] * G.dims[5]),
        Blocks(std::uint64_t(G.dims[0]) * G.dims[1] * G.dims[2]),
        Values(Blocks * Block, traits::identity()) {}
  value_type *data() { return Values.data(); }
  std::size_t size() const { return Values.size(); }

  /// `Target` combined with every thread's contributions.
  void fold(value_type &Target) {
#if !defined(OFFLOAD_GPU_DEVICE)
    if (!Blocks || !Block)
      return;
    std::vector<value_type> Folds(Block);
    for (std::uint64_t B = 0; B < Blocks; ++B)
      __ofld::reduce::cpu_fold_block<traits>(
          Folds.data(), Block, B,
          __ofld::reduce::cpu_block_tree<traits>(&Values[B * Block], Block));
    Target = traits::apply(Target, __ofld::reduce::cpu_grid_result<traits>(
                                       Folds.data(), Block, Blocks));
#else
    (void)Target;
#endif
  }

private:
  std::uint32_t Block;
  std::uint64_t Blocks;
  std::vector<value_type> Values;
};

} // namespace ofld::bridge

//===----------------------------------------------------------------------===//
// Device side: the grid state, and what runs inside the target region.
//===----------------------------------------------------------------------===//

// (Guarded: g++ -Wall warns about OpenMP pragmas without -fopenmp.)
#if defined(_OPENMP)
#pragma omp declare target
#endif
#if defined(_OPENMP)
/// The CPU grid's functions in this module (host code); null in device
/// memory and in a host offload image until a region sets it. (Declared in
/// GPU compilations too: the host's offload entries name them.)
inline const ofld::bridge::cpu_hooks *__ofld_bridge_hooks = nullptr;
/// Teams form on a device: the grid states, one per (team, thread), and the
/// threads per team they are laid out for.
inline ofld::detail::cpu_grid_state *__ofld_bridge_slots = nullptr;
inline unsigned __ofld_bridge_width = 0;
#endif
#if defined(_OPENMP) && !defined(OFFLOAD_GPU_DEVICE)

/// The grid state of the calling thread (device.hpp declares it `const`: a
/// thread's state stays where it is). noinline keeps it one opaque call, so
/// that the compiler asks once per kernel call, not once per index.
extern "C" inline __attribute__((noinline)) ofld::detail::cpu_grid_state *
__ofld_cpu_state() {
  if (const ofld::bridge::cpu_hooks *H = __ofld_bridge_hooks)
    return H->state();
  return __ofld_bridge_slots +
         unsigned(omp_get_team_num()) * __ofld_bridge_width +
         unsigned(omp_get_thread_num());
}
#endif

namespace ofld::bridge {
namespace detail {

/// Block `B` (a linear number) of grid `G` as x, y, z.
inline ofld::dim3 unflatten(std::uint64_t B, const ofld::dim3 &G) {
  return ofld::dim3{std::uint32_t(B % G.x), std::uint32_t(B / G.x % G.y),
                    std::uint32_t(B / G.x / G.y)};
}

#if defined(_OPENMP) && !defined(OFFLOAD_GPU_DEVICE)
/// Makes this module's CPU grid functions those of the launching program.
/// Out of line: the kernel's `const` state lookups come after it.
__attribute__((noinline)) inline ofld::detail::cpu_grid_state *
enterCpu(const grid &G) {
  __ofld_bridge_hooks = G.hooks;
  return G.hooks->state();
}

#endif

#if !defined(OFFLOAD_GPU_DEVICE)
/// Where and how the CPU grid runs: the grid state, its barrier, fiber
/// scheduler and shared arrays, and which blocks this thread runs.
struct cpu_walk {
  ofld::detail::cpu_grid_state *state;
  ofld::detail::cpu_barrier_fn barrier;
  void (*finish)(ofld::detail::cpu_grid_state *);
  ofld::detail::cpu_shared_fn shared;
  std::uint64_t first, stride;
};

/// The CPU grid: the calling thread runs blocks W.first, W.first + W.stride,
/// ... Each block runs its threads in order, like the plugin's CPU grid: a
/// thread that reaches sync_threads() turns the rest of the block into
/// fibers, which finish before the next block starts.
template <class F> void walkCpuGrid(const grid &G, F &Body, const cpu_walk &W) {
  ofld::detail::cpu_grid_state &S = *W.state;
  const ofld::detail::cpu_grid_state Saved = S;
  S.grid = ofld::dim3{G.dims[0], G.dims[1], G.dims[2]};
  S.block = ofld::dim3{G.dims[3], G.dims[4], G.dims[5]};
  S.barrier = W.barrier;
  S.shared = W.shared;
  S.run_thread = [](void *B) { (*static_cast<F *>(B))(); };
  S.run_ctx = &Body;
  S.fibers = 0;
  std::uint64_t Blocks = std::uint64_t(S.grid.x) * S.grid.y * S.grid.z;
  for (std::uint64_t B = W.first; B < Blocks; B += W.stride) {
    S.block_id = unflatten(B, S.grid);
    bool Fibers = false;
    for (std::uint32_t TZ = 0; TZ < S.block.z && !Fibers; ++TZ)
      for (std::uint32_t TY = 0; TY < S.block.y && !Fibers; ++TY)
        for (std::uint32_t TX = 0; TX < S.block.x && !Fibers; ++TX) {
          S.thread_id = ofld::dim3{TX, TY, TZ};
          Body();
          Fibers = S.fibers != 0;
        }
    if (Fibers)
      W.finish(&S);
  }
  S = Saved;
}

/// The CPU grid of a team: with OpenMP, team T of N runs blocks T, T+N, ...
/// with the launching program's CPU grid functions (the region may run in
/// another module); without, the target construct is ignored and the whole
/// grid runs here.
template <class F> void cpuTeam(const grid &G, F &Body) {
#if defined(_OPENMP)
  const int Team = omp_get_team_num(), Teams = omp_get_num_teams();
  walkCpuGrid(G, Body,
              {enterCpu(G), G.hooks->barrier, G.hooks->finish, G.hooks->shared,
               std::uint64_t(Team > 0 ? Team : 0),
               std::uint64_t(Teams > 0 ? Teams : 1)});
#else
  walkCpuGrid(G, Body,
              {&ofld::detail::cpu_grid_ref(), &__ofld_cpu_barrier,
               &__ofld_cpu_finish_block, &__ofld_cpu_shared, 0, 1});
#endif
}
#endif

#if defined(_OPENMP) && !OFFLOAD_BRIDGE_BARE
/// Teams form on a device: the shared arrays of the block a team runs, in
/// storage local to the team (CUDA's default limit of static shared memory).
struct team_arena {
  static constexpr unsigned Bytes = 48 * 1024, MaxArrays = 32;
  struct entry {
    const void *key;
    unsigned offset, bytes;
  } entries[MaxArrays];
  unsigned count, used;
  /// Every OpenMP thread of the team runs exactly one kernel thread: the
  /// kernel may synchronise.
  bool direct;
  alignas(64) unsigned char data[Bytes];
};

inline void teamBarrier(ofld::detail::cpu_grid_state *S) {
  if (!static_cast<team_arena *>(S->scheduler)->direct) {
    // shape() refuses kernels known to synchronise before they launch;
    // this one synchronises through code the rewriter did not see.
    std::printf("offload: ofld::sync_threads() in a block of %llu threads, "
                "but the OpenMP implementation runs fewer threads per team\n",
                (unsigned long long)(S->block.x * S->block.y * S->block.z));
    std::abort();
  }
#pragma omp barrier
}

inline void *teamShared(ofld::detail::cpu_grid_state *S, const void *Key,
                        std::size_t Bytes, std::size_t Align) {
  team_arena &A = *static_cast<team_arena *>(S->scheduler);
  void *P = nullptr;
#pragma omp critical(__ofld_bridge_shared)
  {
    for (unsigned I = 0; I < A.count && !P; ++I)
      if (A.entries[I].key == Key && A.entries[I].bytes >= Bytes)
        P = A.data + A.entries[I].offset;
    if (!P && A.count < team_arena::MaxArrays) {
      unsigned Offset = unsigned((A.used + Align - 1) / Align * Align);
      if (Offset + Bytes <= team_arena::Bytes) {
        A.entries[A.count++] = {Key, Offset, unsigned(Bytes)};
        A.used = Offset + unsigned(Bytes);
        P = A.data + Offset;
      }
    }
  }
  if (!P) {
    std::printf("offload: the shared arrays of a block exceed %u bytes\n",
                team_arena::Bytes);
    std::abort();
  }
  return P;
}

/// Teams form on a device: each team runs blocks T, T+N, ...; its OpenMP
/// threads run the block's threads t, t+M, ... (one each where the team is
/// as large as the block). A barrier ends every block, so that the next one
/// starts with the shared arrays free.
template <class F> void deviceTeams(const grid &G, F &Body) {
  team_arena Arena;
  Arena.count = Arena.used = 0;
  const ofld::dim3 Grid{G.dims[0], G.dims[1], G.dims[2]};
  const ofld::dim3 Block{G.dims[3], G.dims[4], G.dims[5]};
  const std::uint64_t Blocks = std::uint64_t(Grid.x) * Grid.y * Grid.z;
  const std::uint32_t Threads = Block.x * Block.y * Block.z;
#pragma omp parallel num_threads(G.threads) shared(Arena)
  {
    const unsigned Tid = unsigned(omp_get_thread_num());
    const unsigned NThreads = unsigned(omp_get_num_threads());
#pragma omp single
    {
      Arena.direct = NThreads >= Threads;
      // Every team stores the same values.
#pragma omp atomic write
      __ofld_bridge_slots = G.slots;
#pragma omp atomic write
      __ofld_bridge_width = G.threads;
    }
    ofld::detail::cpu_grid_state &S = *__ofld_cpu_state();
    S.grid = Grid;
    S.block = Block;
    S.barrier = &teamBarrier;
    S.shared = &teamShared;
    S.scheduler = &Arena;
    S.fibers = 0;
    const int Teams = omp_get_num_teams();
    for (std::uint64_t B = unsigned(omp_get_team_num()); B < Blocks;
         B += unsigned(Teams > 0 ? Teams : 1)) {
      S.block_id = unflatten(B, Grid);
      for (std::uint32_t T = Tid; T < Threads; T += NThreads) {
        S.thread_id = unflatten(T, Block);
        Body();
      }
#pragma omp barrier
    }
  }
}
#endif

} // namespace detail

/// One kernel thread's accumulator of a reduction parameter (`R`:
/// ofld::sum<T>, min or max), handed to the kernel, then stored at the
/// thread's linear number in the grid (ofld::bridge::reduction).
template <class R> class accumulator {
  struct acc_t : R {
    acc_t() {}
  } Acc;

public:
  R &get() { return Acc; }
  void store(typename R::value_type *Values) {
    std::uint64_t Block =
        ofld::block_id(0) +
        std::uint64_t(ofld::grid_dim(0)) *
            (ofld::block_id(1) +
             std::uint64_t(ofld::grid_dim(1)) * ofld::block_id(2));
    std::uint64_t Thread =
        ofld::thread_id(0) +
        std::uint64_t(ofld::block_dim(0)) *
            (ofld::thread_id(1) +
             std::uint64_t(ofld::block_dim(1)) * ofld::thread_id(2));
    std::uint64_t Threads = std::uint64_t(ofld::block_dim(0)) *
                            ofld::block_dim(1) * ofld::block_dim(2);
    Values[Block * Threads + Thread] = ofld::detail::reduce_access::value(Acc);
  }
};

/// Runs the kernel call `Body` inside a bare target region (clang 19+).
template <class F> void run_bare(const grid &G, F &&Body) {
  if (!G.dims[0])
    return; // an empty grid: nothing to do, as under the plugin
#if defined(OFFLOAD_GPU_DEVICE)
  // Every hardware thread is one kernel thread; the grid is the hardware's.
  Body();
#else
  detail::cpuTeam(G, Body);
#endif
}

/// Runs the kernel call `Body` inside a target teams region of the form
/// that OFFLOAD_BRIDGE_BARE selects.
template <class F> void run(const grid &G, F &&Body) {
#if OFFLOAD_BRIDGE_BARE || !defined(_OPENMP)
  run_bare(G, Body);
#else
  if (!G.dims[0])
    return;
  if (G.cpu || omp_is_initial_device())
    detail::cpuTeam(G, Body);
  else
    detail::deviceTeams(G, Body);
#endif
}

} // namespace ofld::bridge
#if defined(_OPENMP)
#pragma omp end declare target
#endif

//===----------------------------------------------------------------------===//
// Host side: devices, launch shapes, errors, data held across launches.
//===----------------------------------------------------------------------===//

#if defined(_OPENMP) && !defined(OFFLOAD_GPU_DEVICE)
namespace ofld::bridge {
namespace detail {

inline std::atomic<ofld::error_handler> &handler() {
  static std::atomic<ofld::error_handler> H{nullptr};
  return H;
}

/// Reports a whole "offload: ..." message as the offload runtime does: to
/// the handler, else on stderr with exit status 1.
inline void report(const char *Message) {
  if (ofld::error_handler H = handler().load()) {
    H(Message);
    return;
  }
  std::fprintf(stderr, "%s\n", Message);
  std::exit(EXIT_FAILURE);
}

/// Reports `Cause` for the call at `S` (or a region, without one).
[[gnu::format(printf, 2, 3)]] inline void fail(const site *S,
                                               const char *Format, ...) {
  char Cause[512], Message[1024];
  va_list Args;
  va_start(Args, Format);
  std::vsnprintf(Cause, sizeof(Cause), Format, Args);
  va_end(Args);
  if (S)
    std::snprintf(Message, sizeof(Message), "offload: kernel '%s' at %s:%u: %s",
                  S->kernel, S->file, S->line, Cause);
  else
    std::snprintf(Message, sizeof(Message), "offload: ofld::region: %s", Cause);
  report(Message);
}

/// Reports `Cause` for `What` (a region update, a device_buffer) at `P`, in
/// the runtime's words.
[[gnu::format(printf, 3, 4)]] inline void
failAt(const __ofld_place *P, const char *What, const char *Format, ...) {
  char Cause[512], Message[1024];
  va_list Args;
  va_start(Args, Format);
  std::vsnprintf(Cause, sizeof(Cause), Format, Args);
  va_end(Args);
  if (P && P->file)
    std::snprintf(Message, sizeof(Message), "offload: %s at %s:%u: %s", What,
                  P->file, P->line, Cause);
  else
    std::snprintf(Message, sizeof(Message), "offload: %s: %s", What, Cause);
  report(Message);
}

/// An error of a launch that did not wait (`.nowait`), reported at the next
/// point that waits, as the plugin's runtime does (docs/StreamOrdering.md):
/// ofld::wait(), the wait() of the launch's queue, the end of an
/// ofld::region on its device, the end of the program.
struct deferred_error {
  int device, queue;
  std::string message;
};
/// (Never destroyed: the end of the program reports what is left.)
inline std::mutex &deferredLock() {
  static auto *M = new std::mutex;
  return *M;
}
inline std::vector<deferred_error> &deferredErrors() {
  static auto *V = new std::vector<deferred_error>;
  return *V;
}

/// Reports the deferred errors of OpenMP device `Device` and queue `Queue`
/// (-1: any), in the order they happened.
inline void reportDeferred(int Device, int Queue) {
  std::vector<deferred_error> Now;
  {
    std::lock_guard<std::mutex> Guard(deferredLock());
    std::vector<deferred_error> &All = deferredErrors();
    if (All.empty())
      return;
    std::vector<deferred_error> Later;
    for (deferred_error &E : All)
      ((Device == -1 || E.device == Device) && (Queue == -1 || E.queue == Queue)
           ? Now
           : Later)
          .push_back(std::move(E));
    All.swap(Later);
  }
  for (const deferred_error &E : Now)
    report(E.message.c_str());
}

/// The end of the program waits too: what is left is reported there (no
/// std::exit while the program exits).
struct deferred_at_exit {
  ~deferred_at_exit() {
    std::vector<deferred_error> Left;
    {
      std::lock_guard<std::mutex> Guard(deferredLock());
      Left.swap(deferredErrors());
    }
    for (const deferred_error &E : Left) {
      if (ofld::error_handler H = handler().load()) {
        H(E.message.c_str());
        continue;
      }
      std::fprintf(stderr, "%s\n", E.message.c_str());
      std::fflush(nullptr);
      std::_Exit(EXIT_FAILURE);
    }
  }
};
inline deferred_at_exit DeferredAtExit;

/// Reports `Cause` for launch `G`: at once, or at the next point that waits
/// where the launch did not wait.
[[gnu::format(printf, 2, 3)]] inline void failLaunch(const grid &G,
                                                     const char *Format, ...) {
  char Cause[512], Message[1024];
  va_list Args;
  va_start(Args, Format);
  std::vsnprintf(Cause, sizeof(Cause), Format, Args);
  va_end(Args);
  std::snprintf(Message, sizeof(Message), "offload: kernel '%s' at %s:%u: %s",
                G.at.kernel, G.at.file, G.at.line, Cause);
  if (!G.nowait) {
    report(Message);
    return;
  }
  std::lock_guard<std::mutex> Guard(deferredLock());
  deferredErrors().push_back({G.device, G.queue, Message});
}

enum class policy { standard, mandatory, disabled };
inline policy offloadPolicy() {
  static const policy P = [] {
    const char *Env = std::getenv("OMP_TARGET_OFFLOAD");
    if (Env && !strcasecmp(Env, "MANDATORY"))
      return policy::mandatory;
    if (Env && !strcasecmp(Env, "DISABLED"))
      return policy::disabled;
    return policy::standard;
  }();
  return P;
}

/// Whether OpenMP device `D` belongs to LLVM's host offload plugin, whose
/// devices are named "<cpu>-<n>".
inline bool isHostTargetDevice(int D) {
#if defined(__clang__)
  if (!omp_get_uid_from_device)
    return false;
  const char *Uid = omp_get_uid_from_device(D);
  if (!Uid)
    return false;
  for (const char *Name :
       {"x86_64", "aarch64", "ppc64", "ppc64le", "s390x", "riscv64"}) {
    std::size_t N = std::strlen(Name);
    if (!std::strncmp(Uid, Name, N) && Uid[N] == '-')
      return true;
  }
#else
  (void)D;
#endif
  return false;
}

/// What a launch asks about the devices, asked once (the devices do not
/// change during a run, and libomptarget takes a lock to answer).
struct device_table {
  int initial, count;
  /// The OpenMP numbers of the devices offload numbers from 0: the GPUs
  /// where there is one, else the host offload target's devices (as
  /// libofld_rt).
  std::vector<int> preferred;
  /// Per OpenMP device: it belongs to the host offload target.
  std::vector<char> host_target;
  bool default_from_env;
};
inline const device_table &devices() {
  static const device_table Table = [] {
    device_table T{omp_get_initial_device(),
                   omp_get_num_devices(),
                   {},
                   {},
                   std::getenv("OMP_DEFAULT_DEVICE") != nullptr};
    std::vector<int> Gpus, Hosts;
    for (int D = 0; D < T.count; ++D) {
      T.host_target.push_back(isHostTargetDevice(D));
      (T.host_target.back() ? Hosts : Gpus).push_back(D);
    }
    T.preferred = Gpus.empty() ? Hosts : Gpus;
    return T;
  }();
  return Table;
}
inline const std::vector<int> &preferredDevices() {
  return devices().preferred;
}

/// ofld::set_default_device's number; -1: none.
inline std::atomic<int> &userDefault() {
  static std::atomic<int> D{-1};
  return D;
}

/// The OpenMP device for a launch that asks for `Requested` (-1: the
/// default), or the initial device (the host) where the kernel runs there.
/// Reports what names no device.
inline int selectDevice(const site *S, int Requested) {
  const std::vector<int> &Devices = preferredDevices();
  const int Count = int(Devices.size());
  const int Host = devices().initial;
  if (Requested >= Count || Requested < -1) {
    fail(S, "device %d does not exist (%d offload device%s available)",
         Requested, Count, Count == 1 ? "" : "s");
    return -2;
  }
  int Device = -1;
  if (Requested >= 0) {
    Device = Devices[Requested];
  } else if (int D = userDefault().load(); D != -1) {
    if (D < 0 || D >= Count) {
      fail(S,
           "default device %d (ofld::set_default_device) does not exist (%d "
           "offload device%s available)",
           D, Count, Count == 1 ? "" : "s");
      return -2;
    }
    Device = Devices[D];
  } else if (devices().default_from_env) {
    // OpenMP's number; the initial device's number means the host.
    int D = omp_get_default_device();
    int N = devices().count;
    if (D >= 0 && D < N)
      Device = D;
    else if (D != N && D != Host && offloadPolicy() == policy::mandatory) {
      fail(S,
           "default device %d (OMP_DEFAULT_DEVICE) does not exist (%d offload "
           "device%s available)",
           D, N, N == 1 ? "" : "s");
      return -2;
    }
  } else if (Count) {
    Device = Devices[0];
  }
  if (offloadPolicy() == policy::disabled)
    return Host;
  if (Device < 0) {
    if (offloadPolicy() == policy::mandatory) {
      fail(S, "no offload device is available and OMP_TARGET_OFFLOAD="
              "MANDATORY forbids running on the host");
      return -2;
    }
    return Host;
  }
  return Device;
}

/// Whether device `D` runs its regions on this CPU (then the grid is
/// emulated there, one team per core).
inline bool runsOnCpu(int D) {
  const device_table &T = devices();
  return D == T.initial || (D >= 0 && D < T.count && T.host_target[D]);
}

/// This OS thread's CPU grid state, and the scheduler of detail/cpu_grid.hpp.
inline ofld::detail::cpu_grid_state *hostState() {
  static thread_local ofld::detail::cpu_grid_state S;
  return &S;
}
inline constexpr cpu_hooks HostHooks = {&hostState, &__ofld_cpu_barrier,
                                        &__ofld_cpu_finish_block,
                                        &__ofld_cpu_shared};
/// Host code of this module finds the CPU grid from the start (the CPU
/// fallback's offload() of calls that were not rewritten, too).
inline const bool HostHooksInstalled = (__ofld_bridge_hooks = &HostHooks, true);

#if !OFFLOAD_BRIDGE_BARE
/// Teams form: how many OpenMP threads a team of device `D` can have, and
/// device memory for the grid states of the largest league asked for.
struct team_limits {
  unsigned threads, teams;
  ofld::detail::cpu_grid_state *slots;
  /// The stack of an OpenMP thread, where known (g++'s NVPTX code), else 0.
  unsigned long stack;
};
inline team_limits probeTeams(int D) {
  unsigned N = 1;
#pragma omp target teams num_teams(1) thread_limit(1024) device(D) map(from : N)
#pragma omp parallel num_threads(1024)
  {
    if (omp_get_thread_num() == 0)
      N = unsigned(omp_get_num_threads());
  }
  unsigned long Stack = 0;
#if defined(__GNUC__) && !defined(__clang__)
  // libgomp loads the plugin of each offload target it finds devices of.
  // libgomp 12's nvptx plugin gives each warp, an OpenMP thread, a stack of
  // 128 KiB (plugin-nvptx.c, nvptx_stacks_size: fixed, no environment
  // variable sets it). With another plugin loaded too, device D's is not
  // known here.
  auto Loaded = [](const char *Plugin) {
    void *H = dlopen(Plugin, RTLD_LAZY | RTLD_NOLOAD);
    if (H)
      dlclose(H);
    return H != nullptr;
  };
  if (Loaded("libgomp-plugin-nvptx.so.1") && !Loaded("libgomp-plugin-gcn.so.1"))
    Stack = 128 * 1024;
#endif
  // At most 8 MiB of grid states; more blocks than teams take turns.
  const std::size_t Bytes = sizeof(ofld::detail::cpu_grid_state);
  unsigned Teams = unsigned(8u << 20) / unsigned(Bytes * N);
  Teams = Teams > 1024 ? 1024 : (Teams ? Teams : 1);
  auto *Slots = static_cast<ofld::detail::cpu_grid_state *>(
      omp_target_alloc(std::size_t(Teams) * N * Bytes, D));
  return {N, Teams, Slots, Stack};
}
inline const team_limits &teamLimits(int D) {
  static std::mutex Lock;
  static std::vector<std::pair<int, team_limits>> Known;
  std::lock_guard<std::mutex> Guard(Lock);
  for (const auto &[Dev, L] : Known)
    if (Dev == D)
      return L;
  Known.reserve(Known.size() + 1);
  return Known.emplace_back(D, probeTeams(D)).second;
}

/// What a warp's stack (`L.stack`, g++'s NVPTX code) leaves for the by-value
/// objects a kernel modifies, which each kernel thread copies into its
/// parameters. The first warp of a team holds the region's frame, which has
/// a copy of them too (g++ inlines the CPU grid there, which a GPU never
/// runs), the team's frame with its shared-array arena (deviceTeams), and
/// the frame of the call (ptxas's frames for tests/e2e/big_by_value.cpp:
/// under 1 KiB more), libgomp's and the kernel's own variables (8 KiB kept).
/// 0: no limit known.
inline std::size_t stackForCopies(const team_limits &L) {
  constexpr std::size_t Reserve = sizeof(team_arena) + 8 * 1024;
  return !L.stack ? 0 : L.stack > Reserve ? (L.stack - Reserve) / 2 : 1;
}

/// The largest block of a kernel that synchronises that a team of device
/// `D` surely runs with one OpenMP thread per kernel thread. GCC's OpenMP
/// threads on NVPTX are warps, and a team has as many as the target
/// region's own kernel can have (CUDA's maximum threads per block of that
/// kernel over 32, at most 32): it depends on the registers each region
/// uses, which the probe's region does not tell. ptxas gives a thread at
/// most 255 registers, so every kernel can have 256 threads, 8 warps.
inline unsigned syncingTeam(const team_limits &L) {
  constexpr unsigned EveryKernel = 8;
  return L.threads < EveryKernel ? L.threads : EveryKernel;
}
#endif

/// Reports `Cause` once per call site on stderr: what runs differently
/// from the plugin's build, not an error.
[[gnu::format(printf, 2, 3)]] inline void note(const site &S,
                                               const char *Format, ...) {
  static std::mutex Lock;
  static std::vector<std::pair<const char *, unsigned>> Seen;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    for (const auto &[File, Line] : Seen)
      if (Line == S.line && !std::strcmp(File, S.file))
        return;
    Seen.emplace_back(S.file, S.line);
  }
  char Cause[512];
  va_list Args;
  va_start(Args, Format);
  std::vsnprintf(Cause, sizeof(Cause), Format, Args);
  va_end(Args);
  std::fprintf(stderr, "offload: kernel '%s' at %s:%u: note: %s\n", S.kernel,
               S.file, S.line, Cause);
}

/// Copies one range of device `D` to the host (`ToHost`) or back; nothing
/// where the range is not present there (OpenMP 5.0's `target update`).
inline void updateRange(bool ToHost, int D, void *Data, std::size_t Bytes) {
  char *P = static_cast<char *>(Data);
  (void)P; // g++ does not count uses in the motion clauses
  if (ToHost) {
#pragma omp target update from(P[0 : Bytes]) device(D)
  } else {
#pragma omp target update to(P[0 : Bytes]) device(D)
  }
}

/// OpenMP map of one range on device `D` (enter when `Enter`, else exit).
inline void mapRange(bool Enter, int D, void *Data, std::size_t Bytes,
                     map_kind K) {
  char *P = static_cast<char *>(Data);
  (void)P; // g++ does not count uses in the map clauses
  if (Enter && (K & to)) {
#pragma omp target enter data map(to : P[0 : Bytes]) device(D)
  } else if (Enter) {
#pragma omp target enter data map(alloc : P[0 : Bytes]) device(D)
  } else if (K & from) {
#pragma omp target exit data map(from : P[0 : Bytes]) device(D)
  } else {
#pragma omp target exit data map(release : P[0 : Bytes]) device(D)
  }
}

/// Ranges merged where they overlap: [first, last) byte addresses and the
/// union of their transfers. `Merged` says whether two or more ranges met.
struct span_union {
  std::uintptr_t first, last;
  unsigned kind;
  bool merged;
};
/// Merges `N` ranges (empty ones are skipped) into at most `N` unions.
inline unsigned unite(const range *R, unsigned N, span_union *Out) {
  unsigned Count = 0;
  for (unsigned I = 0; I < N; ++I) {
    if (!R[I].bytes)
      continue;
    span_union U{std::uintptr_t(R[I].data),
                 std::uintptr_t(R[I].data) + R[I].bytes, R[I].kind, false};
    // Absorb every union it touches; repeat until nothing changes.
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (unsigned J = 0; J < Count; ++J)
        if (Out[J].first < U.last && U.first < Out[J].last) {
          U = {Out[J].first < U.first ? Out[J].first : U.first,
               Out[J].last > U.last ? Out[J].last : U.last,
               Out[J].kind | U.kind, true};
          Out[J] = Out[--Count];
          Changed = true;
          break;
        }
    }
    Out[Count++] = U;
  }
  return Count;
}

/// Makes `G` a launch that does not run: an empty grid on the host, whose
/// construct maps nothing.
inline void skip(grid &G) {
  for (int I = 0; I < 6; ++I) {
    G.dims[I] = 0;
    G.hw[I] = 1;
  }
  G.device = devices().initial;
  G.cpu = true;
  G.moved_from = -1;
  G.teams = G.threads = 1;
}

/// What the ofld::regions of the program hold, per OpenMP device: a launch
/// that writes into a range a region maps to the device only (an entry
/// `std::span<const T>`) marks it, and the region copies it back at its
/// end, as the plugin's runtime does (docs/StreamOrdering.md).
struct held_region {
  const void *key; ///< the region's entries
  int device;
  __ofld_place place;
  std::vector<span_union> ranges;
  std::vector<char> written;
};
inline std::mutex &regionsLock() {
  static std::mutex M;
  return M;
}
inline std::vector<held_region> &regions() {
  static std::vector<held_region> R;
  return R;
}
/// How many regions hold data on a device: launches look only if any do.
inline std::atomic<unsigned> &regionCount() {
  static std::atomic<unsigned> N{0};
  return N;
}

/// Marks what launch `G` writes through `R` (to and from the device) into
/// ranges that regions on its device map to the device only, and warns once
/// per call site (unless offload-rewrite did).
inline void markWrites(const grid &G, const range &R) {
  if (!regionCount().load(std::memory_order_relaxed))
    return;
  const std::uintptr_t First = std::uintptr_t(R.data), Last = First + R.bytes;
  __ofld_place Place{nullptr, 0};
  {
    std::lock_guard<std::mutex> Guard(regionsLock());
    bool Any = false, AllToOnly = true;
    for (const held_region &H : regions())
      if (H.device == G.device)
        for (const span_union &U : H.ranges)
          if (U.first <= First && Last <= U.last) {
            Any = true;
            AllToOnly &= !(U.kind & from);
          }
    if (!Any || !AllToOnly)
      return;
    for (held_region &H : regions())
      if (H.device == G.device)
        for (std::size_t I = 0; I < H.ranges.size(); ++I)
          if (H.ranges[I].first <= First && Last <= H.ranges[I].last) {
            H.written[I] = 1;
            Place = H.place;
          }
  }
  if (G.at.flags & warned_const)
    return;
  static std::mutex Lock;
  static std::vector<std::pair<const char *, unsigned>> Seen;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    for (const auto &[File, Line] : Seen)
      if (Line == G.at.line && !std::strcmp(File, G.at.file))
        return;
    Seen.emplace_back(G.at.file, G.at.line);
  }
  char Where[512] = "";
  if (Place.file)
    std::snprintf(Where, sizeof(Where), " at %s:%u", Place.file,
                  unsigned(Place.line));
  std::fprintf(stderr,
               "offload: warning: kernel '%s' at %s:%u writes through '%s' "
               "into memory that the ofld::region%s maps to the device only "
               "(std::span<const T>); the region copies it back at its end\n",
               G.at.kernel, G.at.file, G.at.line, R.name, Where);
}

namespace capacity = ofld::detail::capacity;

/// The CUDA driver's entry points that ask a device's free memory.
struct cuda_api {
  int (*CtxGetCurrent)(void **) = nullptr;
  int (*CtxSetCurrent)(void *) = nullptr;
  int (*MemGetInfo)(std::size_t *, std::size_t *) = nullptr;
  int (*PointerGetAttribute)(void *, int, unsigned long long) = nullptr;
};

/// The free memory of OpenMP device `D`, or capacity::NoAnswer where it is
/// no CUDA device. Both OpenMP runtimes (libomptarget, libgomp's nvptx
/// plugin) load the CUDA driver and allocate in a context of their own
/// making; the context of a byte allocated once is the one to ask in. The
/// driver is only looked up, never loaded, here.
inline std::uint64_t freeBytes(int D) {
  struct device_memory {
    std::mutex lock;
    cuda_api api;
    std::vector<signed char> known; // per device: -1 not asked
    std::vector<void *> context;    // null: no answer there
  };
  static device_memory M;
  void *Ctx = nullptr;
  {
    std::lock_guard<std::mutex> Guard(M.lock);
    if (M.known.empty()) {
      const int N = omp_get_num_devices();
      M.known.assign(std::size_t(N > 0 ? N : 0), -1);
      M.context.assign(M.known.size(), nullptr);
    }
    if (D < 0 || std::size_t(D) >= M.known.size())
      return capacity::NoAnswer;
    if (M.known[D] < 0) {
      M.known[D] = 0;
      void *Probe = isHostTargetDevice(D) ? nullptr : omp_target_alloc(1, D);
      if (Probe && !M.api.MemGetInfo)
        if (void *Lib =
                dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD)) {
          cuda_api A;
          A.CtxGetCurrent = reinterpret_cast<decltype(A.CtxGetCurrent)>(
              dlsym(Lib, "cuCtxGetCurrent"));
          A.CtxSetCurrent = reinterpret_cast<decltype(A.CtxSetCurrent)>(
              dlsym(Lib, "cuCtxSetCurrent"));
          A.MemGetInfo = reinterpret_cast<decltype(A.MemGetInfo)>(
              dlsym(Lib, "cuMemGetInfo_v2"));
          A.PointerGetAttribute =
              reinterpret_cast<decltype(A.PointerGetAttribute)>(
                  dlsym(Lib, "cuPointerGetAttribute"));
          if (A.CtxGetCurrent && A.CtxSetCurrent && A.MemGetInfo &&
              A.PointerGetAttribute)
            M.api = A;
        }
      // CU_POINTER_ATTRIBUTE_CONTEXT (1): fails for memory that is not
      // CUDA's.
      void *Owner = nullptr;
      if (Probe && M.api.MemGetInfo &&
          !M.api.PointerGetAttribute(&Owner, 1, std::uintptr_t(Probe)) &&
          Owner) {
        M.context[D] = Owner;
        M.known[D] = 1;
      }
      if (Probe)
        omp_target_free(Probe, D);
    }
    Ctx = M.context[D];
  }
  if (!Ctx)
    return capacity::NoAnswer;
  void *Saved = nullptr;
  if (M.api.CtxGetCurrent(&Saved) || (Saved != Ctx && M.api.CtxSetCurrent(Ctx)))
    return capacity::NoAnswer;
  std::size_t Free = 0, Total = 0;
  const bool Ok = !M.api.MemGetInfo(&Free, &Total);
  if (Saved != Ctx)
    (void)M.api.CtxSetCurrent(Saved);
  return Ok ? std::uint64_t(Free) : capacity::NoAnswer;
}

/// The first of the `N` ranges of `R` that device `D` cannot hold, by the
/// plugin's runtime's rule (offload/detail/capacity.hpp), or -1.
inline int misfit(int D, const range *R, unsigned N) {
  return capacity::firstMisfitOf(
      N, [&](unsigned I) { return R[I].data; },
      [&](unsigned I) { return std::uint64_t(R[I].bytes); },
      [&](unsigned I) { return omp_target_is_present(R[I].data, D) != 0; },
      [&] { return freeBytes(D); },
      [&](std::uint64_t Bytes) {
        return omp_target_alloc(std::size_t(Bytes), D);
      },
      [&](void *P) { omp_target_free(P, D); });
}

/// Whether device `D` can hold the ranges of launch `G` it does not hold
/// yet; reports the first that it cannot.
inline bool fits(const grid &G, const range *R, unsigned N) {
  const int M = misfit(G.device, R, N);
  if (M < 0)
    return true;
  failLaunch(G, capacity::ArgumentCause, (unsigned long long)R[M].bytes,
             R[M].name, (long long)G.device);
  return false;
}

} // namespace detail

/// The launch shape of a rewritten call: `L` is the call's ofld::launch
/// (null: the default shape), `Extent` what the kernel's bounds check admits
/// per dimension, as offload-rewrite spelled it from the arguments. The
/// plugin's rule, from offload/launch.hpp (lacks_bound: no grid and no bound
/// is an error; default_dims: an unset grid or block is the default shape; a
/// zero component launches nothing), and the plugin's device rule. `.nowait`
/// launches run at once: every launch finishes in order.
inline grid shape(const site &S, const ofld::launch *L,
                  const long long Extent[3]) {
  ofld::launch Shape = L ? *L : ofld::launch{};
  grid G{};
  G.device = detail::devices().initial;
  G.cpu = true;
  G.moved_from = -1;
  G.hooks = &detail::HostHooks;
  G.at = S;
  G.nowait = Shape.nowait;
  G.queue = Shape.queue.index_;
  // The plugin's order: the device, then the shape (offload/launch.hpp:
  // the default shape, any zero component launching nothing, the limits).
  // A launch that names no device runs on its queue's.
  const int Device = detail::selectDevice(
      &S, Shape.device != -1 ? Shape.device : Shape.queue.device());
  if (Device == -2)
    return G;
  // The runtime's words for a launch that gives no grid to a kernel without
  // a bound (launch.hpp); it does not run, as a shape beyond the limits.
  if (ofld::detail::lacks_bound(&Shape, Extent)) {
    char Cause[320];
    __ofld::unbounded_cause(Cause, sizeof(Cause), Extent);
    detail::fail(&S, "%s", Cause);
    return G; // an empty grid on the host
  }
  std::uint64_t Dims[6];
  ofld::detail::default_dims(&Shape, Extent, Dims);
  // An empty grid launches nothing and copies nothing, as under the plugin.
  if (ofld::detail::is_empty(Dims)) {
    detail::skip(G);
    return G;
  }
  // The runtime's words for a shape beyond the limits (launch.hpp). The
  // bridge cannot ask a device for its own; a GPU's are NVIDIA's, which the
  // runtime names as the device's.
  if (char Cause[256]; __ofld::limit_cause(
          Cause, sizeof(Cause), Dims, ofld::detail::portable_max_grid,
          ofld::detail::portable_max_block,
          ofld::detail::portable_max_threads)) {
    char Whose[64] = "";
    if (!detail::runsOnCpu(Device))
      std::snprintf(Whose, sizeof(Whose), " of device %d", Device);
    detail::fail(
        &S, "%s%s%s", Cause, Whose,
        __ofld::default_grid_hint(L, Dims, ofld::detail::portable_max_grid));
    return G; // an empty grid on the host
  }
  for (int I = 0; I < 6; ++I)
    G.dims[I] = G.hw[I] = std::uint32_t(Dims[I]);
  G.device = Device;
  G.cpu = detail::runsOnCpu(Device);
  const std::uint64_t Blocks = std::uint64_t(G.hw[0]) * G.hw[1] * G.hw[2];
  const std::uint32_t Threads = G.hw[3] * G.hw[4] * G.hw[5];
  if (G.cpu) {
    // A CPU runs the whole grid on one thread, as the plugin's CPU grid does:
    // a league of threads costs more to start and join than most launches
    // take (and would race where blocks do).
    G.teams = G.threads = 1;
    for (std::uint32_t &H : G.hw)
      H = 1;
    return G;
  }
#if !OFFLOAD_BRIDGE_BARE
  const detail::team_limits &Limits = detail::teamLimits(Device);
  if ((S.flags & synchronises) && Threads > detail::syncingTeam(Limits)) {
    // The block cannot run one OpenMP thread per kernel thread: run the
    // launch on this CPU's grid (whose fibers synchronise any block), with
    // the device's copies of its data (aliases).
    detail::note(S,
                 "runs on the host: its blocks of %u threads synchronise, "
                 "and OpenMP teams on device %d are sure to hold at most %u "
                 "threads",
                 Threads, Device, detail::syncingTeam(Limits));
    G.moved_from = Device;
    G.device = detail::devices().initial;
    G.cpu = true;
    G.teams = G.threads = 1;
    for (std::uint32_t &H : G.hw)
      H = 1;
    return G;
  }
  if (const std::size_t Room = detail::stackForCopies(Limits);
      Room && S.copies > Room) {
    // A larger copy would overflow into other warps' stacks (silently
    // wrong) or out of the stacks' memory (an illegal address).
    detail::fail(&S,
                 "its by-value parameters that it modifies take %zu bytes, "
                 "which each kernel thread copies onto the stack; g++'s "
                 "OpenMP runtime leaves them %zu of the %lu bytes per warp "
                 "on device %d: pass the object in a std::span",
                 S.copies, Room, Limits.stack, Device);
    detail::skip(G);
    return G;
  }
  if (!Limits.slots) {
    detail::fail(&S, "cannot allocate the grid state on device %d", Device);
    detail::skip(G);
    return G;
  }
  G.threads = Threads < Limits.threads ? Threads : Limits.threads;
  G.teams = std::uint32_t(Blocks < Limits.teams ? Blocks : Limits.teams);
  G.slots = Limits.slots;
#else
  G.teams = std::uint32_t(Blocks < 0x7fffffffu ? Blocks : 0x7fffffffu);
  G.threads = Threads;
#endif
  return G;
}

/// The OpenMP device of launches that name none (the data of a launch
/// group is held there); problems are reported by the launches.
inline int default_device() {
  int D = detail::selectDevice(nullptr, -1);
  return D == -2 ? omp_get_initial_device() : D;
}

/// Whether the default device can hold the ranges of a launch group whose
/// first launch is at `S`: its `target data` holds them only then (`if`
/// clause), as the plugin's runtime does; else the first it cannot hold is
/// reported and the group's launches map (and check) their own data.
inline bool group_fits(const site &S, std::initializer_list<range> Ranges) {
  const int D = default_device();
  if (D == omp_get_initial_device())
    return true;
  const int M = detail::misfit(D, Ranges.begin(), unsigned(Ranges.size()));
  if (M < 0)
    return true;
  const range &R = Ranges.begin()[M];
  detail::fail(&S, detail::capacity::ArgumentCause, (unsigned long long)R.bytes,
               R.name, (long long)D);
  return false;
}

/// The data of one launch around its target construct:
///  * the union of arguments that overlap (the same buffer as a
///    std::span<const T> and a std::span<T>, a sub-span of another argument)
///    is mapped for the duration of the launch, as the plugin does: the map
///    clauses of the construct then find their ranges present, and what a
///    kernel writes through one comes back with the union;
///  * a launch that runs on the host instead of its device (shape()) reads
///    the device's copies of data held there (a launch group, a region) and
///    writes back what it may have written.
class aliases {
public:
  aliases(grid &G, std::initializer_list<range> Ranges)
      : Device(G.device), MovedFrom(G.moved_from) {
    if (Ranges.size() > MaxRanges || !G.dims[0])
      return;
    if (MovedFrom < 0 && Device != detail::devices().initial) {
      if (!detail::fits(G, Ranges.begin(), unsigned(Ranges.size()))) {
        // The launch does not run; its construct maps nothing.
        detail::skip(G);
        Device = G.device;
        return;
      }
      for (const range &R : Ranges)
        if ((R.kind & from) && R.bytes)
          detail::markWrites(G, R);
    }
    if (MovedFrom >= 0) {
      for (const range &R : Ranges)
        Held[Count++] = {std::uintptr_t(R.data),
                         std::uintptr_t(R.data) + R.bytes, R.kind, false};
      for (unsigned I = 0; I < Count; ++I)
        detail::updateRange(true, MovedFrom, data(I), bytes(I));
      return;
    }
    detail::span_union All[MaxRanges];
    unsigned N = detail::unite(Ranges.begin(), unsigned(Ranges.size()), All);
    for (unsigned I = 0; I < N; ++I)
      if (All[I].merged)
        Held[Count++] = All[I];
    for (unsigned I = 0; I < Count; ++I)
      detail::mapRange(true, Device, data(I), bytes(I), map_kind(Held[I].kind));
  }
  ~aliases() {
    for (unsigned I = Count; I-- > 0;) {
      if (MovedFrom < 0)
        detail::mapRange(false, Device, data(I), bytes(I),
                         map_kind(Held[I].kind));
      else if (Held[I].kind & from)
        detail::updateRange(false, MovedFrom, data(I), bytes(I));
    }
  }
  aliases(const aliases &) = delete;
  aliases &operator=(const aliases &) = delete;

private:
  static constexpr unsigned MaxRanges = 16;
  void *data(unsigned I) const {
    return reinterpret_cast<void *>(Held[I].first);
  }
  std::size_t bytes(unsigned I) const { return Held[I].last - Held[I].first; }
  detail::span_union Held[MaxRanges];
  unsigned Count = 0;
  int Device, MovedFrom;
};

} // namespace ofld::bridge

//===----------------------------------------------------------------------===//
// The host API of launch.hpp and region.hpp, without libofld_rt.
//===----------------------------------------------------------------------===//

namespace ofld {
inline error_handler set_error_handler(error_handler H) {
  return bridge::detail::handler().exchange(H);
}
inline int device_count() {
  return int(bridge::detail::preferredDevices().size());
}
inline void set_default_device(int Device) {
  // -1 goes back to the automatic choice; other numbers are checked at the
  // next launch, which can name the kernel and call site.
  bridge::detail::userDefault().store(Device);
}
/// Every rewritten launch has finished when its block ends; the errors of
/// those that did not wait are reported here.
inline void wait() { bridge::detail::reportDeferred(-1, -1); }
/// Queues name a device (the launches on them have finished, too) and
/// keep the errors of their launches that did not wait apart, as the
/// runtime's: each takes the next of the device's 15 other queues.
inline queue::queue(int device) : device_(device) {
  static std::atomic<unsigned> Next{0};
  index_ = std::int32_t(1 + Next++ % 15);
}
inline void queue::wait() const {
  const std::vector<int> &Devices = bridge::detail::preferredDevices();
  if (device_ >= 0 && device_ < int(Devices.size()))
    bridge::detail::reportDeferred(Devices[device_], index_);
}
} // namespace ofld

/// The runtime's reporter, which the headers' own checks call
/// (device_buffer's sizes).
extern "C" inline void __ofld_report_error(const char *Message) {
  ofld::bridge::detail::report(Message);
}

namespace ofld::bridge::detail {
/// A device_buffer: host address space that stands for it (never touched),
/// associated with the device memory.
struct buffer {
  std::uintptr_t first, last;
  int device;
  void *device_ptr;
  std::size_t reserved;
};
inline std::mutex &buffersLock() {
  static std::mutex M;
  return M;
}
inline std::vector<buffer> &buffers() {
  static std::vector<buffer> B;
  return B;
}
/// The buffer that holds `P`, if any.
inline bool findBuffer(const void *P, buffer &Out) {
  auto A = std::uintptr_t(P);
  std::lock_guard<std::mutex> Guard(buffersLock());
  for (const buffer &B : buffers())
    if (B.first <= A && A < B.last) {
      Out = B;
      return true;
    }
  return false;
}
} // namespace ofld::bridge::detail

extern "C" inline void __ofld_region_update(std::int64_t D, void *Ptr,
                                            std::int64_t Bytes,
                                            std::int32_t ToDevice,
                                            const __ofld_place *P) {
  namespace d = ofld::bridge::detail;
  const char *What =
      ToDevice ? "ofld::region::update_to" : "ofld::region::update_from";
  if (D < 0 || Bytes <= 0)
    return; // kernels run on the host: its memory is the device's
  d::buffer B;
  if (d::findBuffer(Ptr, B)) {
    d::failAt(P, What,
              "the range is a device_buffer's, which has no host copy; use its "
              "copy_from and copy_to");
    return;
  }
  if (!omp_target_is_present(Ptr, int(D)) ||
      !omp_target_is_present(static_cast<char *>(Ptr) + Bytes - 1, int(D))) {
    d::failAt(P, What,
              "the %lld bytes at %p are not on device %lld (a region, launch "
              "group or device_buffer must hold all of them)",
              (long long)Bytes, Ptr, (long long)D);
    return;
  }
  d::updateRange(!ToDevice, int(D), Ptr, std::size_t(Bytes));
}

extern "C" inline void *__ofld_buffer_alloc(std::int64_t Bytes,
                                            std::int32_t Requested,
                                            std::int64_t *OmpDevice,
                                            const __ofld_place *P) {
  namespace d = ofld::bridge::detail;
  const char *What = "ofld::device_buffer";
  *OmpDevice = -1;
  if (Bytes <= 0)
    return nullptr;
  const int Count = int(d::preferredDevices().size());
  if (Requested < -1 || Requested >= Count) {
    d::failAt(P, What,
              "device %d does not exist (%d offload device%s available)",
              Requested, Count, Count == 1 ? "" : "s");
    return nullptr;
  }
  const int D = Requested == -1 ? ofld::bridge::default_device()
                                : d::preferredDevices()[Requested];
  if (D == omp_get_initial_device()) { // kernels run here: host memory it is
    void *Host = std::malloc(std::size_t(Bytes));
    if (!Host)
      d::failAt(P, What, "cannot allocate %lld bytes on the host",
                (long long)Bytes);
    return Host;
  }
  void *Dev = omp_target_alloc(std::size_t(Bytes), D);
  if (!Dev) {
    d::failAt(P, What,
              "cannot allocate %lld bytes on device %d: out of device memory",
              (long long)Bytes, D);
    return nullptr;
  }
  // Address space that no host access may use: a span of the buffer holds
  // these addresses, and the launches' maps find them present (associated).
  std::size_t Page = std::size_t(sysconf(_SC_PAGESIZE));
  std::size_t Reserved = (std::size_t(Bytes) + Page - 1) / Page * Page;
  void *Host = mmap(nullptr, Reserved, PROT_NONE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (Host == MAP_FAILED ||
      omp_target_associate_ptr(Host, Dev, std::size_t(Bytes), 0, D)) {
    if (Host != MAP_FAILED)
      munmap(Host, Reserved);
    omp_target_free(Dev, D);
    d::failAt(P, What, "cannot set up %lld bytes on device %d",
              (long long)Bytes, D);
    return nullptr;
  }
  {
    std::lock_guard<std::mutex> Guard(d::buffersLock());
    auto A = std::uintptr_t(Host);
    d::buffers().push_back({A, A + std::uintptr_t(Bytes), D, Dev, Reserved});
  }
  *OmpDevice = D;
  return Host;
}

extern "C" inline void __ofld_buffer_free(void *Host, std::int64_t,
                                          std::int64_t D) {
  namespace d = ofld::bridge::detail;
  if (D < 0) {
    std::free(Host);
    return;
  }
  d::buffer B;
  {
    std::lock_guard<std::mutex> Guard(d::buffersLock());
    auto &All = d::buffers();
    auto It = All.begin();
    while (It != All.end() && It->first != std::uintptr_t(Host))
      ++It;
    if (It == All.end())
      return;
    B = *It;
    All.erase(It);
  }
  omp_target_disassociate_ptr(Host, int(D));
  omp_target_free(B.device_ptr, int(D));
  munmap(Host, B.reserved);
}

extern "C" inline void __ofld_buffer_copy(void *Host, std::int64_t Offset,
                                          std::int64_t D, void *User,
                                          std::int64_t Bytes,
                                          std::int32_t ToDevice,
                                          const __ofld_place *P) {
  namespace d = ofld::bridge::detail;
  if (Bytes <= 0)
    return;
  if (!Host) {
    d::failAt(P, "ofld::device_buffer",
              "the buffer has no memory (its allocation failed)");
    return;
  }
  if (D < 0) {
    char *Buf = static_cast<char *>(Host) + Offset;
    std::memcpy(ToDevice ? Buf : User, ToDevice ? User : Buf,
                std::size_t(Bytes));
    return;
  }
  d::buffer B;
  if (!d::findBuffer(Host, B))
    return;
  const int HostDevice = omp_get_initial_device();
  int Failed =
      ToDevice ? omp_target_memcpy(B.device_ptr, User, std::size_t(Bytes),
                                   std::size_t(Offset), 0, int(D), HostDevice)
               : omp_target_memcpy(User, B.device_ptr, std::size_t(Bytes), 0,
                                   std::size_t(Offset), HostDevice, int(D));
  if (Failed)
    d::failAt(P, "ofld::device_buffer",
              "copying %lld bytes %s device %lld failed", (long long)Bytes,
              ToDevice ? "to" : "from", (long long)D);
}

extern "C" inline std::int64_t
__ofld_region_begin(const ofld::detail::region_entry *E, std::int32_t N,
                    const __ofld_place *P) {
  int D = ofld::bridge::detail::selectDevice(nullptr, -1);
  if (D == -2 || D == omp_get_initial_device())
    return -1;
  // Overlapping entries are held as their union, like a launch's arguments.
  std::vector<ofld::bridge::range> R;
  for (std::int32_t I = 0; I < N; ++I)
    R.push_back(
        {E[I].ptr, std::size_t(E[I].bytes), ofld::bridge::map_kind(E[I].type)});
  // A region the device cannot hold holds nothing (reported): its launches
  // map their own data, as under the plugin.
  if (int M = ofld::bridge::detail::misfit(D, R.data(), unsigned(N)); M >= 0) {
    ofld::bridge::detail::failAt(
        P, "ofld::region", ofld::detail::capacity::EntryCause,
        (unsigned long long)E[M].bytes, M + 1, (long long)D);
    return -1;
  }
  std::vector<ofld::bridge::detail::span_union> U(R.size());
  unsigned Count =
      ofld::bridge::detail::unite(R.data(), unsigned(R.size()), U.data());
  for (unsigned I = 0; I < Count; ++I)
    ofld::bridge::detail::mapRange(
        true, D, reinterpret_cast<void *>(U[I].first), U[I].last - U[I].first,
        ofld::bridge::map_kind(U[I].kind));
  U.resize(Count);
  {
    namespace d = ofld::bridge::detail;
    std::lock_guard<std::mutex> Guard(d::regionsLock());
    d::regions().push_back({E, D, P ? *P : __ofld_place{nullptr, 0}, U,
                            std::vector<char>(Count, 0)});
    d::regionCount().fetch_add(1);
  }
  return D;
}

extern "C" inline void __ofld_region_end(std::int64_t D,
                                         const ofld::detail::region_entry *E,
                                         std::int32_t N) {
  namespace d = ofld::bridge::detail;
  if (D < 0)
    return;
  // The end of a region waits: errors of launches that did not wait.
  d::reportDeferred(int(D), -1);
  std::vector<ofld::bridge::range> R;
  for (std::int32_t I = 0; I < N; ++I)
    R.push_back(
        {E[I].ptr, std::size_t(E[I].bytes), ofld::bridge::map_kind(E[I].type)});
  std::vector<d::span_union> U(R.size());
  unsigned Count = d::unite(R.data(), unsigned(R.size()), U.data());
  std::vector<char> Written(Count, 0);
  {
    std::lock_guard<std::mutex> Guard(d::regionsLock());
    std::vector<d::held_region> &All = d::regions();
    for (std::size_t I = All.size(); I-- > 0;)
      if (All[I].key == E && All[I].device == int(D)) {
        if (All[I].written.size() == Count)
          Written = All[I].written;
        All.erase(All.begin() + std::ptrdiff_t(I));
        d::regionCount().fetch_sub(1);
        break;
      }
  }
  for (unsigned I = Count; I-- > 0;) {
    void *Data = reinterpret_cast<void *>(U[I].first);
    const std::size_t Bytes = U[I].last - U[I].first;
    // A launch wrote into a range mapped to the device only: it comes back.
    if (Written[I])
      d::updateRange(true, int(D), Data, Bytes);
    d::mapRange(false, int(D), Data, Bytes, ofld::bridge::map_kind(U[I].kind));
  }
}
#elif !defined(_OPENMP)
namespace ofld::bridge {
/// Without OpenMP every launch runs here, on the CPU grid; one that gives
/// no grid to a kernel without a bound is reported (cpu_fallback.hpp's
/// __ofld_report_error) and runs no thread.
inline grid shape(const site &S, const ofld::launch *L,
                  const long long Extent[3]) {
  ofld::launch Shape = L ? *L : ofld::launch{};
  grid G{};
  G.cpu = true;
  G.moved_from = -1;
  G.teams = G.threads = 1;
  if (ofld::detail::lacks_bound(&Shape, Extent)) {
    char Cause[320], Message[512];
    __ofld::unbounded_cause(Cause, sizeof(Cause), Extent);
    std::snprintf(Message, sizeof(Message), "offload: kernel '%s' at %s:%u: %s",
                  S.kernel, S.file, S.line, Cause);
    __ofld_report_error(Message);
    return G;
  }
  std::uint64_t Dims[6];
  ofld::detail::default_dims(&Shape, Extent, Dims);
  const bool Empty = ofld::detail::is_empty(Dims);
  for (int I = 0; I < 6; ++I)
    G.dims[I] = G.hw[I] = Empty ? 0 : std::uint32_t(Dims[I]);
  return G;
}
inline int default_device() { return 0; }
inline bool group_fits(const site &, std::initializer_list<range>) {
  return true;
}
class aliases {
public:
  aliases(const grid &, std::initializer_list<range>) {}
};
} // namespace ofld::bridge
#else
// Device compilations parse the host code around target regions too, also
// offload() calls that offload-rewrite left as they were (they run on the
// CPU, in the host compilation).
template <class... P>
void offload(void (*kernel)(P...), const std::type_identity_t<P> &...args);
template <class... P>
void offload(const ofld::launch &shape, void (*kernel)(P...),
             const std::type_identity_t<P> &...args);
namespace ofld::bridge {
grid shape(const site &S, const ofld::launch *L, const long long Extent[3]);
int default_device();
bool group_fits(const site &S, std::initializer_list<range> Ranges);
class aliases {
public:
  aliases(const grid &, std::initializer_list<range>);
  ~aliases();
};
} // namespace ofld::bridge
#endif

#endif // OFFLOAD_OMP_BRIDGE_HPP
