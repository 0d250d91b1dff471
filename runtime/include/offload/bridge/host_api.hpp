//===- offload/bridge/host_api.hpp - the host API ---------------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Not for users. The host API that offload.hpp declares for libofld_rt
// (device_count, set_default_device, set_error_handler, wait, queues) and
// the runtime's reporter that the headers call, implemented with the OpenMP
// API, so a rewritten program links no offload library.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BRIDGE_HOST_API_HPP
#define OFFLOAD_BRIDGE_HOST_API_HPP

#include "offload/bridge/devices.hpp"

#if defined(_OPENMP) && !defined(OFFLOAD_GPU_DEVICE)
namespace ofld {
inline error_handler set_error_handler(error_handler H) {
  return bridge::detail::handler().exchange(H);
}
inline int device_count() {
  return int(bridge::detail::preferredDevices().size());
}
inline void set_default_device(int Device) {
  // -1 goes back to the automatic choice; other numbers are checked at the
  // next launch, which can name the kernel and call site.
  bridge::detail::userDefault().store(Device);
}
/// Every rewritten launch has finished when its block ends; the errors of
/// those that did not wait are reported here.
inline void wait() { bridge::detail::reportDeferred(-1, -1); }
/// Queues name a device (the launches on them have finished, too) and
/// keep the errors of their launches that did not wait apart, as the
/// runtime's: each takes the next of the device's 15 other queues.
inline queue::queue(int device) : device_(device) {
  static std::atomic<unsigned> Next{0};
  index_ = std::int32_t(1 + Next++ % 15);
}
inline void queue::wait() const {
  const std::vector<int> &Devices = bridge::detail::preferredDevices();
  if (device_ >= 0 && device_ < int(Devices.size()))
    bridge::detail::reportDeferred(Devices[device_], index_);
}
} // namespace ofld

/// The runtime's reporter, which the headers' own checks call
/// (device_buffer's sizes).
extern "C" inline void __ofld_report_error(const char *Message) {
  ofld::bridge::detail::report(Message);
}
#endif

#endif // OFFLOAD_BRIDGE_HOST_API_HPP
