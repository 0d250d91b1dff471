//===- offload/bridge/site.hpp - a rewritten call ---------------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Not for users. What offload-rewrite knows about each call it rewrote: the
// kernel and where the call is, for messages, and what it found in the
// kernel, so that the bridge need not find it again at run time.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BRIDGE_SITE_HPP
#define OFFLOAD_BRIDGE_SITE_HPP

#include "offload/bridge/config.hpp"

namespace ofld::bridge {

/// Where a rewritten call is, for messages: "offload: kernel 'k' at f:l: ...";
/// `flags`: what offload-rewrite knew about it (below).
struct site {
  const char *kernel;
  const char *file;
  unsigned line;
  unsigned flags = 0;
  /// The bytes of the large by-value objects the kernel modifies: each
  /// kernel thread copies them into its parameters (on the stack).
  std::size_t copies = 0;
};
/// The kernel calls sync_threads() or uses a shared_array.
inline constexpr unsigned synchronises = 1;
/// The kernel calls ofld:: warp functions that exchange values between
/// lanes (shfl*, ballot, any, all, sync_warp).
inline constexpr unsigned warp_level = 4;
/// offload-rewrite warned that the call writes into memory an ofld::region
/// maps to the device only: no warning at run time (as the plugin's
/// compile-time warning).
inline constexpr unsigned warned_const = 2;

} // namespace ofld::bridge

#endif // OFFLOAD_BRIDGE_SITE_HPP
