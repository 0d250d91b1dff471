//===- offload/bridge/config.hpp - compilers and OpenMP ---------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Not for users (offload/omp_bridge.hpp includes it first). What the bridge
// needs of the compiler before anything else: the settings of the headers it
// includes (the CPU grid inline, the CPU fallback quiet), the form of the
// target construct (OFFLOAD_BRIDGE_BARE) and the macros offload-rewrite
// writes around it, the OpenMP routines that some installations do not
// declare, and the diagnostics that mean nothing without the plugin.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BRIDGE_CONFIG_HPP
#define OFFLOAD_BRIDGE_CONFIG_HPP

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
/// macros in directives): a kernel's grid, block and dynamic shared memory
/// (ofld::dynamic_shared reads it on the GPU) for the bare form, the league
/// and team size asked for in the standard form.
#if OFFLOAD_BRIDGE_BARE
#define OFFLOAD_BRIDGE_GRID(G)                                                 \
  ompx_bare num_teams((G).hw[0], (G).hw[1], (G).hw[2])                         \
      thread_limit((G).hw[3], (G).hw[4], (G).hw[5])                            \
          ompx_dyn_cgroup_mem((G).shared_bytes)
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
void *omp_get_mapped_ptr(const void *, int) __attribute__((weak));
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
void *omp_get_mapped_ptr(const void *, int) __attribute__((weak));
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

#endif // OFFLOAD_BRIDGE_CONFIG_HPP
