//===- offload/offload.hpp - offload user API and launch ABI ----*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// What a kernel author and a launching host program see:
//
//   [[offload::kernel]] void saxpy(float a, std::span<const float> x,
//                                  std::span<float> y);
//   offload(saxpy, 2.0f, x, y);
//   offload(ofld::launch{.grid = {4096}, .block = {256}}, saxpy, 2.0f, x, y);
//
// ofld::properties has a header of its own, <offload/properties.hpp>: its
// std::string members bring <string>, which every translation unit would
// otherwise parse (twice under the plugin: host and device side).
//
// With the plugin loaded this header is bundled into the compiler and
// included automatically; `offload` is then only declared and every call is
// lowered by the plugin into the libomptarget launch sequence. Without the
// plugin (g++, plain clang++) the same source runs its kernels on the CPU
// with the same grid semantics.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_OFFLOAD_HPP
#define OFFLOAD_OFFLOAD_HPP

// One error, not dozens from inside (the plugin says so itself, fatally).
#if __cplusplus < 202002L
#error "offload needs -std=c++20 or later"
#else

#include "offload/detail/cpu_grid.hpp"
#include "offload/device.hpp"
#include "offload/device_libc.hpp"
#include "offload/launch.hpp"
#include "offload/math.hpp"
#include "offload/reduction.hpp"
#include "offload/region.hpp"
#include "offload/transfer.hpp"

#include <type_traits>

#if !defined(__OFFLOAD_PLUGIN__) && !defined(OFFLOAD_GPU_DEVICE)
#include "offload/cpu_fallback.hpp"
#endif

#if defined(__OFFLOAD_PLUGIN__)
// Every call is rewritten by the plugin: it checks the call, fills the hidden
// `__ofld_site` descriptor from the kernel's parameter types and lowers the
// marker symbol into the libomptarget launch sequence. Parameters arrive by
// address whatever their C++ type, so the lowering is ABI independent.
//
// offload() takes `const __ofld::param_t<P> &` for a kernel parameter of type
// P: P itself, except for std::span (below). Like std::type_identity_t<P>,
// it is a non-deduced context: P comes from the kernel alone.
#if defined(__OFFLOAD_PLUGIN_DEVICE__)
// Device compilations emit no host code: the calls there only name the
// kernels, and the host compilation, which runs first, has checked their
// arguments. Accepting any argument spares the device front end the
// conversions (std::span's constructors are costly to resolve).
namespace __ofld {
template <class P> struct any_arg {
  template <class A> any_arg(A &&) noexcept {}
};
template <class P>
using param_t = typename std::type_identity<any_arg<P>>::type;
} // namespace __ofld
#else
#include <vector>

namespace __ofld {
/// Whether std::span<T>'s range constructor takes an `R` (a forwarding
/// reference's type, reference included) that is a std::vector: of T's
/// element type, any lvalue; a const or an rvalue one only for a span of
/// const elements (std::vector is no borrowed range). vector<bool> is no
/// contiguous range.
template <class R, class T> inline constexpr bool vector_arg = false;
template <class U, class A, class T>
inline constexpr bool vector_arg<std::vector<U, A> &, T> =
    std::is_same_v<U, std::remove_const_t<T>> && !std::is_same_v<U, bool>;
template <class U, class A, class T>
inline constexpr bool vector_arg<const std::vector<U, A> &, T> =
    std::is_const_v<T> && vector_arg<std::vector<U, A> &, T>;
template <class U, class A, class T>
inline constexpr bool vector_arg<std::vector<U, A> &&, T> =
    vector_arg<const std::vector<U, A> &, T>;
template <class U, class A, class T>
inline constexpr bool vector_arg<const std::vector<U, A> &&, T> =
    vector_arg<const std::vector<U, A> &, T>;

/// The argument of a `std::span<T>` kernel parameter: a std::span<T> (its
/// only base, nothing else), built from a std::span<T> or a std::vector
/// without overload resolution among std::span's constructors, whose
/// constraints (the ranges concepts) clang normalises and checks once per
/// element type: that was half of the front end's time for a translation
/// unit of launches. Whatever else converts to std::span<T> converts through
/// std::span's own constructors, as it would without this type.
template <class T> struct span_param : std::span<T> {
  span_param(const std::span<T> &s) noexcept { set(s.data(), s.size()); }
  // Declared, so that clang need not resolve std::span's copy constructor
  // (with the same cost) to declare it implicitly.
  span_param(const span_param &s) noexcept { set(s.data(), s.size()); }
  template <class R>
    requires vector_arg<R &&, T>
  span_param(R &&v) noexcept {
    set(v.data(), v.size());
  }
  template <class R>
    requires(!vector_arg<R &&, T> && std::is_convertible_v<R &&, std::span<T>>)
  span_param(R &&r) : std::span<T>(static_cast<R &&>(r)) {}

private:
  void set(T *p, std::size_t n) noexcept {
#if defined(__GLIBCXX__) || defined(_LIBCPP_VERSION)
    // Both libraries lay out a span of dynamic extent as {pointer, size}.
    struct raw {
      T *p;
      std::size_t n;
    } r{p, n};
    static_assert(sizeof(raw) == sizeof(std::span<T>));
    __builtin_memcpy(static_cast<std::span<T> *>(this), &r, sizeof r);
#else
    static_cast<std::span<T> &>(*this) = std::span<T>(p, n);
#endif
  }
};

template <class P> struct param {
  using type = reduce::arg_t<P>; // a reduction takes a T lvalue
};
template <class T> struct param<std::span<T>> {
  using type = span_param<T>;
};
template <class P> using param_t = typename param<P>::type;
} // namespace __ofld
#endif

template <class... P>
void offload(void (*kernel)(P...), const __ofld::param_t<P> &...args,
             const char *__ofld_site = nullptr) __asm__("__ofld_launch");
template <class... P>
void offload(const ofld::launch &shape, void (*kernel)(P...),
             const __ofld::param_t<P> &...args,
             const char *__ofld_site = nullptr) __asm__("__ofld_launch_shaped");
#endif

#if !defined(__OFFLOAD_PLUGIN__) && !defined(OFFLOAD_GPU_DEVICE)
namespace __ofld {
template <class... P>
void cpu_offload(const ofld::launch *shape, void (*kernel)(P...),
                 const reduce::arg_t<P> &...args) {
  // Without the plugin every launch gives its grid (the unshaped offload()
  // does not compile): no extent is needed.
  constexpr long long Unknown[3] = {ofld::detail::extent_unknown,
                                    ofld::detail::extent_unknown,
                                    ofld::detail::extent_unknown};
  std::uint64_t Shape[6];
  ofld::detail::default_dims(shape, Unknown, Shape);
  if (!cpu_shape_ok(*shape, Shape) || ofld::detail::is_empty(Shape))
    return;
  // Within the portable limits every component fits 32 bits.
  std::uint32_t Dims[__ofld_num_dims] = {};
  for (int I = 0; I < 6; ++I)
    Dims[I] = std::uint32_t(Shape[I]);
  Dims[__ofld_shared_bytes_dim] = std::uint32_t(shape->shared_bytes);
  // Parameters are built exactly as an ordinary call would build them.
  void *Objs[sizeof...(P) + 1] = {
      const_cast<void *>(static_cast<const void *>(&args))...};
  cpu_grid(Dims, kernel, Objs);
}
} // namespace __ofld
#endif

#endif // __cplusplus >= 202002L
#endif // OFFLOAD_OFFLOAD_HPP
