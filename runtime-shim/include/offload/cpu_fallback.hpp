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
#pragma message("offload: plugin not loaded; offload() kernels run on the CPU")
#endif

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

// Accept the attributes silently: they are ours, not misspellings.
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wunknown-attributes"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wattributes"
#endif

namespace ofld {
struct launch;
}

namespace __ofld {
template <class P> struct shape_extent {
  static constexpr bool value = false;
  static std::size_t count(const P &) { return 0; }
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

#endif // OFFLOAD_CPU_FALLBACK_HPP
