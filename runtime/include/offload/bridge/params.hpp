//===- offload/bridge/params.hpp - kernel parameters ------------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Not for users. How offload-rewrite spells a kernel's parameters and its
// mapped arguments where compilers disagree (g++ refuses some by-value
// class parameters in device code), and the mapped ranges of a call, as the
// launch's data (offload/bridge/launch.hpp) takes them.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BRIDGE_PARAMS_HPP
#define OFFLOAD_BRIDGE_PARAMS_HPP

#include "offload/bridge/config.hpp"
#include "offload/bridge/grid.hpp"
#include "offload/policy/map_kinds.hpp"

#include <vector>

namespace ofld::bridge {

/// A std::span parameter of a kernel (or of a function a kernel calls), as
/// offload-rewrite writes it: the span by value, except for GCC, which
/// refuses by-value parameters of class types with static data members
/// (std::span::extent) in device code ("does not have a mappable type",
/// OpenMP 4.5's rule). A const reference to a span reads the same elements.
#if defined(__GNUC__) && !defined(__clang__)
template <class T, std::size_t E = std::dynamic_extent>
using span_param = const std::span<T, E> &;
#else
template <class T, std::size_t E = std::dynamic_extent>
using span_param = std::span<T, E>;
#endif

/// A large by-value parameter of a kernel that the kernel never modifies,
/// as offload-rewrite writes it: the launch maps the object to the device,
/// and the kernel reads it there, as under the plugin. A const reference
/// for g++, whose NVPTX code keeps a thread's by-value copy on libgomp's
/// stack (128 KiB per warp); the type itself elsewhere.
#if defined(__GNUC__) && !defined(__clang__)
template <class T> using value_param = const T &;
#else
template <class T> using value_param = T;
#endif

/// Parameter `I` of a kernel, as a type: `decltype(param<I>(kernel))`. The
/// rewriter uses it where a parameter type cannot be spelled at the call.
template <std::size_t I, class P0, class... P> struct nth {
  using type = typename nth<I - 1, P...>::type;
};
template <class P0, class... P> struct nth<0, P0, P...> {
  using type = P0;
};
template <std::size_t I, class... P>
auto param(void (*)(P...)) -> typename nth<I, P...>::type;

/// A mapped span rebuilt inside the region from the device address of its
/// data (the span object itself holds the host address).
template <class S>
std::remove_cvref_t<S> view(const S &Host,
                            typename std::remove_cvref_t<S>::pointer Data) {
  return std::remove_cvref_t<S>(Data, Host.size());
}

/// The data of an [[offload::in]] parameter (a span's elements, or one
/// object) as the launch maps it (`map(to: ...)`). A device's copy is the
/// launch's own, so the kernel may write it and nothing comes back; where
/// the launch runs on the host's own memory (no offload device, g++'s
/// host fallback), a private copy plays that part.
template <class T> class scratch {
public:
  scratch(T *Data, std::size_t Count, const grid &G) : Data(Data) {
#if defined(_OPENMP)
    const bool OnHost = G.device == omp_get_initial_device();
#else
    // Without OpenMP every launch runs here, on the caller's memory.
    (void)G;
    const bool OnHost = true;
#endif
    if (OnHost && Count) {
      Copy.assign(Data, Data + Count);
      this->Data = Copy.data();
    }
  }
  T *data() const { return Data; }

private:
  std::vector<T> Copy;
  T *Data;
};

/// One mapped argument, for the overlap check of `aliases`.
/// The values are libomptarget's map bits (offload/policy/map_kinds.hpp).
enum map_kind : unsigned char {
  to = ofld::policy::MapTo,
  from = ofld::policy::MapFrom,
  tofrom = ofld::policy::MapToFrom
};
/// `name`: the argument as the call spells it, for messages.
struct range {
  const void *data;
  std::size_t bytes;
  map_kind kind;
  const char *name;
};
template <class T>
range mapped(const T *Data, std::size_t Count, map_kind K,
             const char *Name = "argument") {
  return {Data, Count * sizeof(T), K, Name};
}

} // namespace ofld::bridge

#endif // OFFLOAD_BRIDGE_PARAMS_HPP
