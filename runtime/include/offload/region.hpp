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
// An object of a class with std::span fields (docs/StructsOfSpans.md) is
// mapped as a kernel parameter of its type moves it: each span field's range
// by the field's type, and not the object's own bytes (a launch copies
// those). The plugin describes the fields (`__ofld_fields_of<S>`); without
// it (the CPU fallback, offload-rewrite's output) the object's bytes are
// mapped, as for any trivially copyable object.
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
#include "offload/policy/loop_watch.hpp"
#include "offload/policy/map_kinds.hpp"

extern "C" {
/// One std::span field of a class, as a region keeps it resident.
struct __ofld_span_field {
#define OFLD_ABI_SPAN_FIELD(Enum, Name, Type) __ofld_abi_##Type Name;
#include "offload/runtime_abi.def"
};
}

#if defined(__OFFLOAD_PLUGIN__)
/// The span fields of S, ended by a row whose map is 0; null for a class
/// without span fields. The plugin sets it for every S a region here maps.
template <class S> inline const __ofld_span_field *__ofld_fields_of = nullptr;
#endif

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

/// The span fields of what a region argument of type A refers to: null for
/// spans, objects without span fields and builds without the plugin.
template <class A> const __ofld_span_field *span_fields_of() {
#if defined(__OFFLOAD_PLUGIN__)
  using U = std::remove_cvref_t<A>;
  if constexpr (std::is_class_v<U> && !is_view<U>::value)
    return __ofld_fields_of<U>;
#endif
  return nullptr;
}

inline std::size_t count_fields(const __ofld_span_field *F) {
  std::size_t N = 0;
  for (; F && F->map; ++F)
    ++N;
  return N;
}

/// The range the span field `F` of the object at `Object` views.
inline region_entry field_entry(const void *Object,
                                const __ofld_span_field &F) {
  const char *At = static_cast<const char *>(Object);
  void *Data;
  std::memcpy(&Data, At + F.data_offset, sizeof(Data));
  std::size_t Size = std::size_t(F.extent);
  if (F.size_offset >= 0)
    std::memcpy(&Size, At + F.size_offset, sizeof(Size));
  return {Data, std::int64_t(Size) * F.element_bytes, F.map};
}

/// Appends to `Out` what the region maps for the argument `E` describes:
/// `E` itself, or the range of each span field of its object in place of
/// the object's bytes. Returns the new number of entries.
inline std::size_t expand_entry(const region_entry &E,
                                const __ofld_span_field *F, region_entry *Out,
                                std::size_t N) {
  if (!F) {
    Out[N] = E;
    return N + 1;
  }
  for (; F->map; ++F)
    Out[N++] = field_entry(E.ptr, *F);
  return N;
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
    expand_fields();
    __ofld_place P = detail::place_of(where);
    device_ = __ofld_region_begin(mapped_, std::int32_t(count_), &P);
#else
    (void)where;
#endif
  }
  region(const region &) = delete;
  region &operator=(const region &) = delete;
  ~region() {
#if defined(_OPENMP)
    __ofld_region_end(device_, mapped_, std::int32_t(count_));
    delete[] expanded_;
#endif
  }

  /// Copies the host's values of a range the device holds to the device
  /// (OpenMP's `target update to`), after the launches issued before. A
  /// struct of spans the region holds: each span field's range.
  template <class R>
  void update_to(R &&range,
                 std::source_location where = std::source_location::current()) {
    update_ranges(range, 1, where);
  }
  /// Copies the device's values of a range it holds back to the host
  /// (`target update from`), after the launches issued before; each span
  /// field's range for a struct of spans.
  template <class R>
  void
  update_from(R &&range,
              std::source_location where = std::source_location::current()) {
    update_ranges(range, 0, where);
  }

private:
  /// A range std::span can view; else an object, whose span fields (or,
  /// without the plugin, whose bytes) the region holds as it maps it.
  template <class R>
  void update_ranges(R &range, std::int32_t to_device,
                     const std::source_location &where) {
    if constexpr (requires { std::span(range); }) {
      update(detail::byte_range(range), to_device, where);
    } else {
      detail::region_entry E = detail::region_arg(range);
      const __ofld_span_field *F = detail::span_fields_of<R>();
      if (!F)
        update({E.ptr, E.bytes}, to_device, where);
      for (; F && F->map; ++F) {
        detail::region_entry Field = detail::field_entry(E.ptr, *F);
        update({Field.ptr, Field.bytes}, to_device, where);
      }
    }
  }

  void update(std::pair<void *, std::int64_t> r, std::int32_t to_device,
              const std::source_location &where) {
#if defined(_OPENMP)
    __ofld_place P = detail::place_of(where);
    __ofld_region_update(device_, r.first, r.second, to_device, &P);
#else
    (void)r, (void)to_device, (void)where; // host memory is the device's
#endif
  }

  /// Objects with span fields map those fields instead of their bytes:
  /// the entries are then built on the heap.
  void expand_fields() {
    const __ofld_span_field *Fields[] = {detail::span_fields_of<A>()...,
                                         nullptr};
    std::size_t Extra = 0;
    for (const __ofld_span_field *F : Fields)
      Extra += detail::count_fields(F);
    if (!Extra)
      return;
    expanded_ = new detail::region_entry[sizeof...(A) + Extra];
    count_ = 0;
    for (std::size_t I = 0; I < sizeof...(A); ++I)
      count_ = detail::expand_entry(entries_[I], Fields[I], expanded_, count_);
    mapped_ = expanded_;
  }

  std::array<detail::region_entry, sizeof...(A)> entries_;
  /// What __ofld_region_begin maps: entries_, or expanded_.
  detail::region_entry *mapped_ = entries_.data();
  std::size_t count_ = sizeof...(A);
  detail::region_entry *expanded_ = nullptr;
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

/// Not for users: what the host touches in a resident loop through `x` (a
/// reference, a global): the object, and the elements a container owns or
/// views. The plugin calls it right after making the loop's scope.
template <class T> void loop_watch(const T &x) noexcept {
#if defined(_OPENMP)
  policy::watchedRanges(x, [](std::uintptr_t First, std::size_t Bytes) {
    __ofld_loop_watch(reinterpret_cast<const void *>(First),
                      std::int64_t(Bytes));
  });
#else
  (void)x;
#endif
}
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
