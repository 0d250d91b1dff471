//===- offload/cpu_fallback.hpp - offload() without the plugin --*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Included by offload.hpp when the plugin is not loaded (g++, plain clang++):
// `offload()` then runs the kernel's whole grid on the calling CPU thread, so
// a program's results do not depend on the compiler. Nothing moves: host
// memory is the device memory.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CPU_FALLBACK_HPP
#define OFFLOAD_CPU_FALLBACK_HPP

#if defined(OFFLOAD_REQUIRE_PLUGIN)
#error                                                                         \
    "offload: this build must offload, but the offload plugin is not loaded (add -fplugin=liboffload.so)"
#elif !defined(OFFLOAD_QUIET_CPU_FALLBACK)
// Said once per translation unit (the include guard). GCC prints it as a
// note; clang as a warning, kept one under -Werror since it is news, not a
// defect. OFFLOAD_QUIET_CPU_FALLBACK silences it.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic warning "-W#pragma-messages"
#endif
#pragma message("offload: plugin not loaded; offload() kernels run on the CPU")
#if defined(__clang__)
#pragma clang diagnostic pop
#endif
#endif

#include "offload/launch.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <type_traits>

// Accept the attributes silently: they are ours, not misspellings. GCC 12+
// ignores exactly the offload:: namespace, and a user's diagnostic push/pop
// around this include does not undo that. Clang has no per-namespace switch:
// it stops warning about unknown attributes for the rest of the translation
// unit (no push/pop here: the user's kernels come after this header).
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wunknown-attributes"
#elif defined(__GNUC__) && __GNUC__ >= 12
#pragma GCC diagnostic ignored_attributes "offload::"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wattributes"
#endif

namespace __ofld {
/// False for every kernel, but only once offload() is instantiated.
template <class... P> inline constexpr bool needs_plugin = false;

template <class... P>
void cpu_offload(const ofld::launch *shape, void (*kernel)(P...),
                 const reduce::arg_t<P> &...args);
} // namespace __ofld

// A reduction parameter (ofld::sum<T>& ...) takes a T lvalue (reduction.hpp).
// The default shape is what the kernel's bounds check admits: only the
// plugin and offload-rewrite can read it, so without them a launch gives
// its shape (README, "Launch shapes").
template <class... P>
void offload(void (*kernel)(P...),
             const std::type_identity_t<__ofld::reduce::arg_t<P>> &...args) {
  static_assert(__ofld::needs_plugin<P...>,
                "offload: a launch without a shape takes one thread per index "
                "the kernel's bounds check admits, which only the offload "
                "plugin or offload-rewrite can read; without them, give the "
                "shape: offload(ofld::launch{.grid = ..., .block = ...}, "
                "kernel, args...)");
  (void)kernel, ((void)args, ...);
}
template <class... P>
void offload(const ofld::launch &shape, void (*kernel)(P...),
             const std::type_identity_t<__ofld::reduce::arg_t<P>> &...args) {
  __ofld::cpu_offload<P...>(&shape, kernel, args...);
}

// The host API of launch.hpp for builds without the plugin, so that they need
// not link libofld_rt: no offload devices, and launches have finished when
// offload() returns. Builds with -fopenmp get it from libofld_rt, which
// defines it out of line and, compiled with -fopenmp itself, never sees this.
#if !defined(_OPENMP) && !defined(__OFFLOAD_PLUGIN__)
namespace ofld {
namespace detail {
inline error_handler &cpu_error_handler() {
  static error_handler Handler = nullptr;
  return Handler;
}
} // namespace detail
inline error_handler set_error_handler(error_handler handler) {
  error_handler Previous = detail::cpu_error_handler();
  detail::cpu_error_handler() = handler;
  return Previous;
}
inline int device_count() { return 0; }
inline void set_default_device(int) {}
inline void wait() {}
inline queue::queue(int device) : device_(device), index_(1) {}
inline void queue::wait() const {}
} // namespace ofld
extern "C" inline void __ofld_report_error(const char *Message) {
  if (ofld::error_handler H = ofld::detail::cpu_error_handler()) {
    H(Message);
    return;
  }
  std::fprintf(stderr, "%s\n", Message);
  std::exit(EXIT_FAILURE);
}
#endif

namespace __ofld {
/// The CPU fallback's check of a launch: it gives its grid, within the
/// portable limits (those of the GPUs, launch.hpp), and asks for no more
/// dynamic shared memory than they allow; reports and returns
/// false if not.
/// Without the plugin there is no kernel name or call site to give (a
/// source_location in ofld::launch would make every launch configuration
/// in a template value-dependent).
inline bool cpu_shape_ok(const ofld::launch &Shape,
                         const std::uint64_t Dims[6]) {
  using namespace ofld::detail;
  char Cause[256];
  if (is_unset(Shape.grid))
    std::snprintf(Cause, sizeof(Cause),
                  "the launch leaves its grid to the kernel's bounds check, "
                  "which only the plugin or offload-rewrite can read; give "
                  "its .grid");
  else if (!limit_cause(Cause, sizeof(Cause), Dims, portable_max_grid,
                        portable_max_block, portable_max_threads) &&
           !shared_cause(Cause, sizeof(Cause), Shape.shared_bytes,
                         portable_max_shared_bytes))
    return true;
  char Message[512];
  std::snprintf(Message, sizeof(Message),
                "offload: a launch (built without the offload plugin, which "
                "would name the kernel and its call site): %s",
                Cause);
  __ofld_report_error(Message);
  return false;
}
} // namespace __ofld

#endif // OFFLOAD_CPU_FALLBACK_HPP
