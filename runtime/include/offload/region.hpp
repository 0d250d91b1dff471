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
#include <cstdio>
#include <cstring>
#include <new>
#include <source_location>
#include <span>
#include <type_traits>
#include <utility>

// The runtime functions called below (__ofld_report_error, the region's and
// device_buffer's): libofld_rt's, offload-rewrite's bridge's or, for
// __ofld_report_error without OpenMP, cpu_fallback.hpp's.
#include "offload/abi.hpp"
#include "offload/policy/map_kinds.hpp"

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
enum region_map : std::int64_t {
  map_to = ofld::policy::MapTo,
  map_from = ofld::policy::MapFrom,
  map_tofrom = ofld::policy::MapToFrom
};

struct region_entry {
  void *ptr;
  std::int64_t bytes;
  std::int64_t type;
};

// These mirror rows of the transfer table (core/lib/TransferRules.cpp)
// for the forms a region accepts; tests/unit checks that they agree.
template <class T> struct is_view : std::false_type {};
template <class T, std::size_t E>
struct is_view<std::span<T, E>> : std::true_type {};
template <class T, std::size_t E>
struct is_view<out_span<T, E>> : std::true_type {};

template <class T, std::size_t E> region_entry region_arg(std::span<T, E> s) {
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
/// Where a region or a device_buffer call is, for messages.
struct __ofld_place {
  const char *file;
  std::uint32_t line;
};
}

namespace ofld {

namespace detail {
/// The byte range of anything std::span can view.
template <class R> std::pair<void *, std::int64_t> byte_range(R &&r) {
  std::span s(r);
  return {const_cast<void *>(static_cast<const void *>(s.data())),
          std::int64_t(s.size_bytes())};
}
inline __ofld_place place_of(const std::source_location &l) {
  return {l.file_name(), l.line()};
}
} // namespace detail

template <class... A> class region {
public:
  explicit region(A &&...args,
                  std::source_location where = std::source_location::current())
      : entries_{detail::region_arg(std::forward<A>(args))...} {
#if defined(_OPENMP)
    __ofld_place P = detail::place_of(where);
    device_ = __ofld_region_begin(entries_.data(), sizeof...(A), &P);
#else
    (void)where;
#endif
  }
  region(const region &) = delete;
  region &operator=(const region &) = delete;
  ~region() {
#if defined(_OPENMP)
    __ofld_region_end(device_, entries_.data(), sizeof...(A));
#endif
  }

  /// Copies the host's values of a range the device holds to the device
  /// (OpenMP's `target update to`), after the launches issued before.
  template <class R>
  void update_to(R &&range,
                 std::source_location where = std::source_location::current()) {
    update(detail::byte_range(range), 1, where);
  }
  /// Copies the device's values of a range it holds back to the host
  /// (`target update from`), after the launches issued before.
  template <class R>
  void
  update_from(R &&range,
              std::source_location where = std::source_location::current()) {
    update(detail::byte_range(range), 0, where);
  }

private:
  void update(std::pair<void *, std::int64_t> r, std::int32_t to_device,
              const std::source_location &where) {
#if defined(_OPENMP)
    __ofld_place P = detail::place_of(where);
    __ofld_region_update(device_, r.first, r.second, to_device, &P);
#else
    (void)r, (void)to_device, (void)where; // host memory is the device's
#endif
  }

  std::array<detail::region_entry, sizeof...(A)> entries_;
  std::int64_t device_ = -1;
};

template <class... A> region(A &&...) -> region<A...>;

namespace detail {
/// Not for users: the scope the plugin gives a loop whose launches keep
/// data on the device (loop residency, docs/LoopResidency.md). Its
/// destructor, run at every way out of the loop, copies back what the
/// loop's launches held.
struct loop_scope {
  loop_scope() noexcept {
#if defined(_OPENMP)
    __ofld_loop_enter();
#endif
  }
  loop_scope(const loop_scope &) = delete;
  loop_scope &operator=(const loop_scope &) = delete;
  ~loop_scope() {
#if defined(_OPENMP)
    __ofld_loop_exit();
#endif
  }
};
} // namespace detail

/// `n` objects of type T on a device and nowhere else: never copied
/// implicitly, passed to kernels as std::span<T> or std::span<const T>
/// (sub-spans too), filled and read with copy_from and copy_to (or
/// ofld::copy and ofld::fill, offload/transfer.hpp, at any offset). A std::span
/// of it holds an address that stands for the device memory: the host must
/// not read or write through it. Where kernels run on the host, it is host
/// memory.
template <class T> class device_buffer {
  static_assert(std::is_trivially_copyable_v<T> && !std::is_const_v<T>,
                "ofld::device_buffer holds trivially copyable, non-const "
                "elements");

public:
  /// On `device` (offload's number), or the default device with -1.
  explicit device_buffer(
      std::size_t n, int device = -1,
      std::source_location where = std::source_location::current())
      : size_(n) {
#if defined(_OPENMP)
    __ofld_place P = detail::place_of(where);
    data_ = static_cast<T *>(
        __ofld_buffer_alloc(std::int64_t(n * sizeof(T)), device, &device_, &P));
    // An allocation that failed was reported: the buffer is empty.
    if (!data_)
      size_ = 0;
#else
    (void)device;
    data_ = n ? new (std::nothrow) T[n] : nullptr;
    if (n && !data_) {
      char Message[256];
      std::snprintf(Message, sizeof(Message),
                    "offload: ofld::device_buffer at %s:%u: cannot allocate "
                    "%zu elements of %zu bytes on the host",
                    where.file_name(), unsigned(where.line()), n, sizeof(T));
      __ofld_report_error(Message);
      size_ = 0;
    }
#endif
  }
  device_buffer(device_buffer &&o) noexcept
      : data_(o.data_), size_(o.size_), device_(o.device_) {
    o.data_ = nullptr;
    o.size_ = 0;
  }
  device_buffer &operator=(device_buffer &&o) noexcept {
    if (this != &o) {
      release();
      data_ = o.data_;
      size_ = o.size_;
      device_ = o.device_;
      o.data_ = nullptr;
      o.size_ = 0;
    }
    return *this;
  }
  device_buffer(const device_buffer &) = delete;
  device_buffer &operator=(const device_buffer &) = delete;
  ~device_buffer() { release(); }

  std::size_t size() const { return size_; }

  /// Copies `src` to the first src.size() elements (at most size()).
  void copy_from(std::span<const T> src,
                 std::source_location where = std::source_location::current()) {
    copy(const_cast<T *>(src.data()), src.size(), 1, where);
  }
  /// Copies the first dst.size() elements (at most size()) to `dst`.
  void
  copy_to(std::span<T> dst,
          std::source_location where = std::source_location::current()) const {
    copy(dst.data(), dst.size(), 0, where);
  }

  operator std::span<T>() { return {data_, size_}; }
  operator std::span<const T>() const { return {data_, size_}; }

private:
  void copy(T *host, std::size_t n, std::int32_t to_device,
            const std::source_location &where) const {
    // Checked here, for every build: the runtimes copy what they are told.
    if (n > size_) {
      char Message[256];
      std::snprintf(Message, sizeof(Message),
                    "offload: ofld::device_buffer at %s:%u: %zu elements do "
                    "not fit in a buffer of %zu",
                    where.file_name(), unsigned(where.line()), n, size_);
      __ofld_report_error(Message);
      return;
    }
#if defined(_OPENMP)
    // ofld::copy's runtime function: `host` may be any span, another
    // buffer's or a region's too.
    __ofld_place P = detail::place_of(where);
    std::int64_t Bytes = std::int64_t(n * sizeof(T));
    if (to_device)
      __ofld_copy(data_, host, Bytes, 0, 0, "ofld::device_buffer", &P);
    else
      __ofld_copy(host, data_, Bytes, 0, 0, "ofld::device_buffer", &P);
#else
    if (n)
      std::memcpy(to_device ? static_cast<void *>(data_) : host,
                  to_device ? static_cast<const void *>(host) : data_,
                  n * sizeof(T));
#endif
  }
  void release() {
#if defined(_OPENMP)
    if (data_)
      __ofld_buffer_free(data_, std::int64_t(size_ * sizeof(T)), device_);
#else
    delete[] data_;
#endif
    data_ = nullptr;
  }

  T *data_ = nullptr;
  std::size_t size_ = 0;
  std::int64_t device_ = -1;
};

} // namespace ofld

#endif // OFFLOAD_REGION_HPP
