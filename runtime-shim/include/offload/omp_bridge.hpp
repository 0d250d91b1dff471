//===- offload/omp_bridge.hpp - offload() as plain OpenMP -------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Support for the sources that `offload-rewrite` produces. Each rewritten
// `offload()` call becomes
//
//   ofld::bridge::grid G = ofld::bridge::shape(Launch, Count);
//   #pragma omp target teams ompx_bare device(G.device)
//       num_teams(G.hw[0], G.hw[1], G.hw[2])
//       thread_limit(G.hw[3], G.hw[4], G.hw[5]) map(...) firstprivate(G, ...)
//   ofld::bridge::run_bare(G, [&] { kernel(...); });
//
// so that stock `clang++ -fopenmp` builds it without the plugin. On a GPU
// every hardware thread of the bare region runs the body once and the
// ofld:: index functions read the hardware registers, exactly as under the
// plugin. On a CPU (the host offload target or host fallback) a team is one
// thread, so run_bare walks its share of the blocks and threads itself,
// setting the same emulated grid state as the plugin-less CPU fallback.
//
// The launch-shape rule is the one of offload/launch.hpp, which the plugin's
// runtime and __ofld::cpu_offload in offload.hpp use too.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_OMP_BRIDGE_HPP
#define OFFLOAD_OMP_BRIDGE_HPP

// Rewritten code never calls the CPU fallback's offload(); don't announce it.
#ifndef OFFLOAD_QUIET_CPU_FALLBACK
#define OFFLOAD_QUIET_CPU_FALLBACK 1
#endif

#include "offload/offload.hpp"

#include <cstddef>
#include <cstdint>
#include <type_traits>

// The kernels keep their [[offload::kernel]] attributes; without the plugin
// they mean nothing, also in device compilations (where cpu_fallback.hpp,
// which silences them on the host, is not included).
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wunknown-attributes"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wattributes"
#endif

// Declared here rather than through <omp.h> so that the header also parses
// where the OpenMP runtime headers are not installed (e.g. in tools).
#if defined(_OPENMP)
extern "C" {
int omp_get_team_num(void);
int omp_get_num_teams(void);
int omp_get_default_device(void);
int omp_get_initial_device(void);
int omp_get_num_procs(void);
#if !defined(OFFLOAD_GPU_DEVICE)
// Only in libomptarget; weak so that host-only OpenMP builds still link.
const char *omp_get_uid_from_device(int) __attribute__((weak));
// Bounds of the offload entry table, which the linker defines in programs
// built with offload targets (LLVM 20 and later name the section so).
extern const char __start_llvm_offload_entries __attribute__((weak));
#endif
}
#endif

#if !defined(OFFLOAD_GPU_DEVICE)
#include <cstdio>
#include <cstdlib>
#endif

#if defined(_OPENMP) && !defined(OFFLOAD_GPU_DEVICE)
#include <dlfcn.h>
#include <pthread.h>

// The CPU grid's barrier and block-shared arrays live in the runtime library
// in OpenMP builds (detail/cpu_grid.hpp). Weak: a rewritten program need not
// link libofld_rt unless its kernels use them on the CPU (see run_bare).
extern "C" {
void __ofld_cpu_barrier(ofld::detail::cpu_grid_state *) __attribute__((weak));
void __ofld_cpu_finish_block(ofld::detail::cpu_grid_state *)
    __attribute__((weak));
void *__ofld_cpu_shared(ofld::detail::cpu_grid_state *, const void *,
                        std::size_t, std::size_t) __attribute__((weak));
}

// offload.hpp reaches the CPU grid state through __ofld_cpu_state(), which
// the runtime library (ofld_rt) defines. Rewritten programs need not link it,
// so define it here too. There must be one state per OS thread for the
// program, the runtime and a host-offload image (which binds its own
// definitions first): every copy forwards to the one the dynamic linker
// sees first, if that is another, and keeps its own state only when it is
// alone. OpenMP forbids thread_local in target code, hence a pthread key.
#pragma omp declare target
extern "C" inline __attribute__((visibility("default")))
ofld::detail::cpu_grid_state *
__ofld_cpu_state() {
  using getter = ofld::detail::cpu_grid_state *(*)();
  static const getter First =
      reinterpret_cast<getter>(dlsym(RTLD_DEFAULT, "__ofld_cpu_state"));
  if (First && First != &__ofld_cpu_state)
    return First();
  static pthread_once_t Once = PTHREAD_ONCE_INIT;
  static pthread_key_t Key;
  pthread_once(&Once, [] { pthread_key_create(&Key, std::free); });
  void *State = pthread_getspecific(Key);
  if (!State) {
    State = std::calloc(1, sizeof(ofld::detail::cpu_grid_state));
    pthread_setspecific(Key, State);
  }
  return static_cast<ofld::detail::cpu_grid_state *>(State);
}
#pragma omp end declare target
#endif

namespace ofld::bridge {

/// The launch of one rewritten call: `dims` is the logical grid (grid x,y,z
/// then block x,y,z) the kernel observes, `hw` what the target construct
/// asks the device for, `device` the OpenMP device number.
struct grid {
  std::uint32_t dims[6];
  std::uint32_t hw[6];
  int device;
};

/// Parameter `I` of a kernel, as a type: `decltype(param<I>(kernel))`. The
/// rewriter uses it where a parameter type cannot be spelled at the call.
template <std::size_t I, class P0, class... P> struct nth {
  using type = typename nth<I - 1, P...>::type;
};
template <class P0, class... P> struct nth<0, P0, P...> { using type = P0; };
template <std::size_t I, class... P>
auto param(void (*)(P...)) -> typename nth<I, P...>::type;

namespace detail {
#if defined(_OPENMP)
inline int teamNum() { return omp_get_team_num(); }
inline int numTeams() { return omp_get_num_teams(); }
#else
// Built without -fopenmp the target construct is ignored and the call runs
// here as a league of one team.
inline int teamNum() { return 0; }
inline int numTeams() { return 1; }
#endif
} // namespace detail

#if !defined(OFFLOAD_GPU_DEVICE)
namespace detail {
#if defined(_OPENMP)
inline int defaultDevice() { return omp_get_default_device(); }
inline int numProcs() { return omp_get_num_procs(); }

/// Whether OpenMP device `Dev` runs its regions on this CPU. Only a positive
/// answer changes anything (fewer teams, see shape()), so unknown means no.
inline bool runsOnCpu(int Dev) {
  // Without offload targets every region runs here. Ask libomptarget
  // nothing then: linked in (by libofld_rt) but never initialised, its
  // device queries crash.
  if (!&__start_llvm_offload_entries)
    return true;
  if (Dev == omp_get_initial_device())
    return true;
  if (!omp_get_uid_from_device)
    return false;
  const char *Uid = omp_get_uid_from_device(Dev);
  if (!Uid)
    return false;
  // The generic-ELF host plugin names its devices "<arch>-<n>".
  for (const char *Arch :
       {"x86_64-", "aarch64-", "ppc64", "s390x-", "riscv64-", "loongarch64-"}) {
    std::size_t I = 0;
    while (Arch[I] && Uid[I] == Arch[I])
      ++I;
    if (!Arch[I])
      return true;
  }
  return false;
}
#else
inline int defaultDevice() { return 0; }
inline int numProcs() { return 1; }
inline bool runsOnCpu(int) { return true; }
#endif
} // namespace detail

/// The launch shape of an offload() call: `L` is the call's ofld::launch
/// (null for the default shape), `Count` the element count of the kernel's
/// shape parameter (-1 if it has none). The rule is the plugin's
/// (ofld::detail::default_dims in launch.hpp): an unset grid is one thread
/// per element, an unset block 256 (1 without a shape parameter), and a
/// zero component (an empty span) an empty grid. A shape beyond the limits
/// that every path enforces is an error.
inline grid shape(const ofld::launch *L, long long Count) {
  namespace rule = ofld::detail;
  std::uint64_t D[6];
  rule::default_dims(L, Count, D);
  if (rule::exceeded_limit(D, rule::portable_max_grid, rule::portable_max_block,
                           rule::portable_max_threads) >= 0) {
    std::fprintf(stderr,
                 "offload: launch of %llux%llux%llu blocks of %llux%llux%llu "
                 "threads is beyond the limits of a grid; pass "
                 "ofld::launch{.grid = ..., .block = ...}\n",
                 (unsigned long long)D[0], (unsigned long long)D[1],
                 (unsigned long long)D[2], (unsigned long long)D[3],
                 (unsigned long long)D[4], (unsigned long long)D[5]);
    std::exit(EXIT_FAILURE);
  }
  grid G = {{}, {}, L && L->device >= 0 ? L->device : detail::defaultDevice()};
  for (int I = 0; I < 6; ++I)
    G.dims[I] = rule::is_empty(D) ? 0 : std::uint32_t(D[I]);
  // An empty grid still needs a valid launch; run_bare then does nothing.
  for (int I = 0; I < 6; ++I)
    G.hw[I] = G.dims[I] ? G.dims[I] : 1;
  // A CPU runs one thread per team and cannot form more teams than it has
  // cores (libomp warns and shrinks the league); run_bare covers the grid
  // with whatever league it gets, so ask only for what it can have.
  if (detail::runsOnCpu(G.device)) {
    std::uint64_t Blocks = std::uint64_t(G.dims[0]) * G.dims[1] * G.dims[2];
    std::uint64_t Procs = detail::numProcs() > 0 ? detail::numProcs() : 1;
    G.hw[0] = std::uint32_t(Blocks < Procs ? (Blocks ? Blocks : 1) : Procs);
    G.hw[1] = G.hw[2] = G.hw[3] = G.hw[4] = G.hw[5] = 1;
  }
  return G;
}
#else
// Device compilations parse the host code around target regions too.
grid shape(const ofld::launch *L, long long Count);
#endif

#pragma omp declare target
#if !defined(OFFLOAD_GPU_DEVICE)
namespace detail {
/// What the CPU grid uses without the runtime library: a barrier is
/// trivially passed by a block of one thread, anything else would silently
/// compute something else, so say what is missing.
[[noreturn]] inline void needsRuntime(const char *What) {
  std::fprintf(stderr,
               "offload: %s in a kernel running on the CPU needs the offload "
               "runtime: link the program with -lofld_rt\n",
               What);
  std::abort();
}
inline void soloBarrier(ofld::detail::cpu_grid_state *G) {
  if (std::uint64_t(G->block.x) * G->block.y * G->block.z > 1)
    needsRuntime("ofld::sync_threads()");
}
inline void *noShared(ofld::detail::cpu_grid_state *, const void *, std::size_t,
                      std::size_t) {
  needsRuntime("ofld::shared_array");
}
} // namespace detail
#endif

/// Runs the kernel call `Body` inside a bare target region.
template <class F> inline void run_bare(const grid &G, F &&Body) {
  if (!G.dims[0])
    return; // an empty grid: nothing to do, as under the plugin
#if defined(OFFLOAD_GPU_DEVICE)
  // Every hardware thread is one kernel thread; the grid is the hardware's.
  Body();
#else
  // Team T of N runs blocks T, T+N, ... Each block runs its threads in
  // order, like the plugin's CPU grid (detail/cpu_grid.hpp): a thread that
  // reaches sync_threads() turns the rest of the block into fibers, which
  // finish before the next block starts.
  using Callable = std::remove_reference_t<F>;
  auto &S = ofld::detail::cpu_grid_ref();
  const ofld::detail::cpu_grid_state Saved = S;
  S.grid = ofld::dim3{G.dims[0], G.dims[1], G.dims[2]};
  S.block = ofld::dim3{G.dims[3], G.dims[4], G.dims[5]};
  S.barrier = &__ofld_cpu_barrier ? &__ofld_cpu_barrier : &detail::soloBarrier;
  S.shared = &__ofld_cpu_shared ? &__ofld_cpu_shared : &detail::noShared;
  S.run_thread = [](void *B) { (*static_cast<Callable *>(B))(); };
  S.run_ctx = const_cast<void *>(static_cast<const void *>(&Body));
  S.fibers = 0;
  std::uint64_t Blocks = std::uint64_t(S.grid.x) * S.grid.y * S.grid.z;
  int Team = detail::teamNum(), Teams = detail::numTeams();
  std::uint64_t Stride = Teams > 0 ? std::uint64_t(Teams) : 1;
  for (std::uint64_t B = Team > 0 ? Team : 0; B < Blocks; B += Stride) {
    S.block_id = ofld::dim3{std::uint32_t(B % S.grid.x),
                            std::uint32_t(B / S.grid.x % S.grid.y),
                            std::uint32_t(B / S.grid.x / S.grid.y)};
    bool Fibers = false;
    for (std::uint32_t TZ = 0; TZ < S.block.z && !Fibers; ++TZ)
      for (std::uint32_t TY = 0; TY < S.block.y && !Fibers; ++TY)
        for (std::uint32_t TX = 0; TX < S.block.x && !Fibers; ++TX) {
          S.thread_id = ofld::dim3{TX, TY, TZ};
          Body();
          Fibers = S.fibers != 0;
        }
    if (Fibers && &__ofld_cpu_finish_block)
      __ofld_cpu_finish_block(&S);
  }
  S = Saved;
#endif
}
#pragma omp end declare target

} // namespace ofld::bridge

#endif // OFFLOAD_OMP_BRIDGE_HPP
