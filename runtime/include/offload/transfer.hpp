//===- offload/transfer.hpp - copies and fills of any span ------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// CUDA's cudaMemcpy and cudaMemset for spans, wherever their memory is:
//
//   ofld::device_buffer<float> d(n);
//   ofld::copy(d, host);                                // host -> device
//   ofld::fill(std::span<float>(d).subspan(8), 0.0f);   // any offset
//   ofld::copy(out, d, {.nowait = true, .queue = q});   // device -> host
//
// Why here and not on device_buffer alone: CUDA code copies between any two
// pointers (offsets, device to device). A span's memory is one of three
// kinds, and the runtime tells which from the address, so one call serves
// them all: a device_buffer's (device memory), a range a live ofld::region
// holds (its device copy: the host copy gets the new values where the region
// copies back, at its end or update_from, as after a kernel's writes), or
// plain host memory. This header checks what the compiler can (element
// types) and the sizes; libofld_rt or the OpenMP bridge (runtime_abi.def:
// __ofld_copy, __ofld_fill) find the memory and order the transfer with the
// launches, as ofld::launch orders a launch.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_TRANSFER_HPP
#define OFFLOAD_TRANSFER_HPP

#include "offload/launch.hpp"
#include "offload/region.hpp"

#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <source_location>
#include <span>
#include <type_traits>
#include <utility>

namespace ofld {

/// How ofld::copy and ofld::fill are ordered with launches. By default
/// they run after every launch issued before on the memory's device and
/// have finished when they return (as cudaMemcpy). With `nowait` they are
/// queued on `queue` of that device, after its earlier launches and before
/// its later ones, and return at once: the memory is valid after
/// ofld::wait() or the queue's wait(), as after a launch that does not wait.
/// The memory decides the device (a device end's, else the default device);
/// `queue` picks one of its queues. Where kernels run on this CPU, transfers
/// happen at once.
struct transfer {
  bool nowait = false;
  ofld::queue queue = {};
};

namespace detail {
template <class T> struct is_device_buffer : std::false_type {};
template <class T>
struct is_device_buffer<device_buffer<T>> : std::true_type {};

/// The span of what ofld::copy and ofld::fill take: anything std::span
/// views, and device buffers (whole).
template <class T> std::span<T> transfer_span(device_buffer<T> &b) { return b; }
template <class T> std::span<const T> transfer_span(const device_buffer<T> &b) {
  return b;
}
template <class R>
  requires(!is_device_buffer<std::remove_cvref_t<R>>::value)
auto transfer_span(R &&r) {
  return std::span(std::forward<R>(r));
}
template <class R>
using transfer_element =
    typename decltype(transfer_span(std::declval<R &>()))::element_type;

[[gnu::format(printf, 3, 4)]] inline void
transfer_error(const char *what, const std::source_location &where,
               const char *format, ...);
} // namespace detail

/// Copies `src` to `dst` (host to device, device to host, device to device,
/// host to host): spans, containers or device buffers of one element type
/// and of one size (else a named error, and nothing is copied).
template <class D, class S>
void copy(D &&dst, S &&src, const transfer &how = {},
          std::source_location where = std::source_location::current()) {
  using DT = detail::transfer_element<D>;
  using ST = detail::transfer_element<S>;
  using T = std::remove_const_t<DT>;
  constexpr bool Writable = !std::is_const_v<DT>;
  constexpr bool Same = std::is_same_v<T, std::remove_const_t<ST>>;
  constexpr bool Trivial = std::is_trivially_copyable_v<T>;
  static_assert(Writable, "ofld::copy: the destination is read-only (a span of "
                          "const elements or a const container)");
  static_assert(Same, "ofld::copy: the destination and the source have "
                      "different element types; ofld::copy moves bytes and "
                      "converts nothing (convert in a kernel)");
  static_assert(Trivial, "ofld::copy: the elements must be trivially copyable");
  if constexpr (Writable && Same && Trivial) {
    std::span<T> d = detail::transfer_span(dst);
    std::span<const T> s = detail::transfer_span(src);
    if (d.size() != s.size()) {
      detail::transfer_error("ofld::copy", where,
                             "the destination has %zu elements and the "
                             "source %zu: the sizes must match",
                             d.size(), s.size());
      return;
    }
#if defined(_OPENMP)
    __ofld_place P = detail::place_of(where);
    __ofld_copy(d.data(), s.data(), std::int64_t(d.size_bytes()),
                how.queue.index_, how.nowait, "ofld::copy", &P);
#else
    (void)how; // without OpenMP all memory is host memory, and launches wait
    if (!d.empty())
      std::memmove(d.data(), s.data(), d.size_bytes());
#endif
  }
}

/// Sets every element of `dst` (a span, container or device buffer) to
/// `value`.
template <class D>
void fill(D &&dst,
          const std::type_identity_t<detail::transfer_element<D>> &value,
          const transfer &how = {},
          std::source_location where = std::source_location::current()) {
  using T = detail::transfer_element<D>;
  constexpr bool Writable = !std::is_const_v<T>;
  constexpr bool Trivial = std::is_trivially_copyable_v<T>;
  static_assert(Writable, "ofld::fill: the destination is read-only (a span of "
                          "const elements or a const container)");
  static_assert(Trivial, "ofld::fill: the elements must be trivially copyable");
  if constexpr (Writable && Trivial) {
    std::span<T> d = detail::transfer_span(dst);
#if defined(_OPENMP)
    __ofld_place P = detail::place_of(where);
    __ofld_fill(d.data(), std::int64_t(d.size_bytes()), &value,
                std::int64_t(sizeof(T)), how.queue.index_, how.nowait,
                "ofld::fill", &P);
#else
    (void)how, (void)where;
    for (T &x : d)
      x = value;
#endif
  }
}

namespace detail {
inline void transfer_error(const char *what, const std::source_location &where,
                           const char *format, ...) {
  char Cause[256];
  va_list Args;
  va_start(Args, format);
  std::vsnprintf(Cause, sizeof(Cause), format, Args);
  va_end(Args);
  char Message[512];
  std::snprintf(Message, sizeof(Message), "offload: %s at %s:%u: %s", what,
                where.file_name(), unsigned(where.line()), Cause);
  __ofld_report_error(Message);
}
} // namespace detail

} // namespace ofld

#endif // OFFLOAD_TRANSFER_HPP
