//===- offload/region.hpp - data kept on the device for a scope -*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
//   {
//     ofld::region r{std::span<const float>(a), std::span<float>(b)};
//     for (int i = 0; i < 100; ++i)
//       offload(step, a, b); // finds a and b present: nothing moves
//   }                        // b comes back here
//
// A region maps its arguments with the rules of kernel parameters:
// std::span<const T> to the device, std::span<T> both ways, ofld::out(span)
// back only, `const T&` to, `T&` both ways. Launches inside it find the data
// present (libomptarget counts references), so only the region's begin and
// end move data. Regions nest and may overlap launches freely.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_REGION_HPP
#define OFFLOAD_REGION_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

namespace ofld {

/// Marks a span as written by the device only: allocated there, copied back
/// at the end of the region, never copied in.
template <class T, std::size_t E = std::dynamic_extent> struct out_span {
  std::span<T, E> view;
};
template <class T, std::size_t E> out_span<T, E> out(std::span<T, E> s) {
  return {s};
}
template <class C> auto out(C &c) -> out_span<typename C::value_type> {
  return {std::span<typename C::value_type>(c)};
}

namespace detail {

/// OpenMP map bits, as the plugin's host lowering uses them.
enum region_map : std::int64_t { map_to = 1, map_from = 2, map_tofrom = 3 };

struct region_entry {
  void *ptr;
  std::int64_t bytes;
  std::int64_t type;
};

// These mirror rows of the transfer table (plugin/Analysis/TransferRules.cpp)
// for the forms a region accepts; tests/unit checks that they agree.
template <class T> struct is_view : std::false_type {};
template <class T, std::size_t E>
struct is_view<std::span<T, E>> : std::true_type {};
template <class T, std::size_t E>
struct is_view<out_span<T, E>> : std::true_type {};

template <class T, std::size_t E>
region_entry region_arg(std::span<T, E> s) {
  return {const_cast<std::remove_const_t<T> *>(s.data()),
          std::int64_t(s.size_bytes()),
          std::is_const_v<T> ? map_to : map_tofrom};
}
template <class T, std::size_t E> region_entry region_arg(out_span<T, E> s) {
  static_assert(!std::is_const_v<T>, "ofld::out needs a writable span");
  return {s.view.data(), std::int64_t(s.view.size_bytes()), map_from};
}
template <class T>
  requires(!is_view<std::remove_const_t<T>>::value)
region_entry region_arg(T &object) {
  using U = std::remove_const_t<T>;
  static_assert(std::is_trivially_copyable_v<U> && !std::is_pointer_v<U>,
                "ofld::region maps spans and trivially copyable objects; "
                "pass a container as std::span(c)");
  return {const_cast<U *>(&object), std::int64_t(sizeof(T)),
          std::is_const_v<T> ? map_to : map_tofrom};
}

} // namespace detail
} // namespace ofld

extern "C" {
/// Maps (begin) or unmaps (end) `n` entries on the default device; returns
/// the device used, or -1 when kernels run on the host.
std::int64_t __ofld_region_begin(const ofld::detail::region_entry *entries,
                                 std::int32_t n);
void __ofld_region_end(std::int64_t device,
                       const ofld::detail::region_entry *entries,
                       std::int32_t n);
}

namespace ofld {

template <class... A> class region {
public:
  explicit region(A &&...args)
      : entries_{detail::region_arg(std::forward<A>(args))...} {
#if defined(_OPENMP)
    device_ = __ofld_region_begin(entries_.data(), sizeof...(A));
#endif
  }
  region(const region &) = delete;
  region &operator=(const region &) = delete;
  ~region() {
#if defined(_OPENMP)
    __ofld_region_end(device_, entries_.data(), sizeof...(A));
#endif
  }

private:
  std::array<detail::region_entry, sizeof...(A)> entries_;
  std::int64_t device_ = -1;
};

template <class... A> region(A &&...) -> region<A...>;

} // namespace ofld

#endif // OFFLOAD_REGION_HPP
