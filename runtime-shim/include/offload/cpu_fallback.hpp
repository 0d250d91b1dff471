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
#error "offload: this build must offload, but the offload plugin is not loaded (add -fplugin=liboffload.so)"
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
template <class P> struct shape_extent {
  static constexpr bool value = false;
  // Any argument: a `T&` parameter arrives here as a `const T&`.
  template <class A> static std::size_t count(const A &) { return 0; }
};
template <class T, std::size_t E> struct shape_extent<std::span<T, E>> {
  static constexpr bool value = true;
  static std::size_t count(const std::span<T, E> &S) { return S.size(); }
};
template <class T, std::size_t N> struct shape_extent<T (&)[N]> {
  static constexpr bool value = true;
  static std::size_t count(const T (&)[N]) { return N; }
};
template <class T, std::size_t N> struct shape_extent<std::array<T, N> &> {
  static constexpr bool value = true;
  static std::size_t count(const std::array<T, N> &) { return N; }
};
template <class T, std::size_t N>
struct shape_extent<const std::array<T, N> &>
    : shape_extent<std::array<T, N> &> {};

/// Element count of the first span or array parameter, as the default launch
/// shape of the plugin defines it; -1 when there is none.
template <class... P, class... A>
long long default_count(const A &...args) {
  long long Count = -1;
  ((Count < 0 && shape_extent<P>::value
        ? (void)(Count = (long long)shape_extent<P>::count(args))
        : (void)0),
   ...);
  return Count;
}

template <class... P>
void cpu_offload(const ofld::launch *shape, void (*kernel)(P...),
                 const std::type_identity_t<P> &...args);
} // namespace __ofld

template <class... P>
void offload(void (*kernel)(P...), const std::type_identity_t<P> &...args) {
  __ofld::cpu_offload<P...>(nullptr, kernel, args...);
}
template <class... P>
void offload(const ofld::launch &shape, void (*kernel)(P...),
             const std::type_identity_t<P> &...args) {
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
/// Nothing fails on the CPU, but a handler set here is kept and returned.
inline error_handler set_error_handler(error_handler handler) {
  error_handler Previous = detail::cpu_error_handler();
  detail::cpu_error_handler() = handler;
  return Previous;
}
inline int device_count() { return 0; }
inline void set_default_device(int) {}
inline void wait() {}
} // namespace ofld
#endif

#endif // OFFLOAD_CPU_FALLBACK_HPP
