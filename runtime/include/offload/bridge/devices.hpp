//===- offload/bridge/devices.hpp - which device runs a launch --*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Not for users. The devices as OpenMP shows them, asked once, and the
// device of each launch by libofld_rt's rule (offload/policy/devices.hpp);
// whether a device runs its regions on this CPU, and the CPU grid's
// functions handed to such regions.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BRIDGE_DEVICES_HPP
#define OFFLOAD_BRIDGE_DEVICES_HPP

#include "offload/bridge/errors.hpp"
#include "offload/bridge/run.hpp"
#include "offload/policy/devices.hpp"
#include "offload/policy/environment.hpp"

#if defined(_OPENMP) && !defined(OFFLOAD_GPU_DEVICE)
namespace ofld::bridge {
namespace detail {

/// OMP_TARGET_OFFLOAD, read once.
inline ofld::policy::Offload offloadPolicy() {
  static const ofld::policy::Offload P = ofld::policy::parseTargetOffload(
      std::getenv(ofld::policy::TargetOffloadVar));
  return P;
}

/// Whether OpenMP device `D` belongs to LLVM's host offload plugin, by its
/// UID (only LLVM's libomptarget names devices).
inline bool isHostTargetDevice(int D) {
#if defined(__clang__)
  return omp_get_uid_from_device &&
         ofld::policy::isHostTargetUid(omp_get_uid_from_device(D));
#else
  (void)D;
  return false;
#endif
}

/// What a launch asks about the devices, asked once (the devices do not
/// change during a run, and libomptarget takes a lock to answer).
struct device_table {
  int initial, count;
  /// The OpenMP numbers of the devices offload numbers from 0
  /// (ofld::policy::preferredDevices).
  std::vector<int> preferred;
  /// Per OpenMP device: it belongs to the host offload target.
  std::vector<char> host_target;
  bool default_from_env;
};
inline const device_table &devices() {
  static const device_table Table = [] {
    device_table T{omp_get_initial_device(),
                   omp_get_num_devices(),
                   {},
                   {},
                   ofld::policy::defaultDeviceSet(
                       std::getenv(ofld::policy::DefaultDeviceVar))};
    for (int D = 0; D < T.count; ++D)
      T.host_target.push_back(isHostTargetDevice(D));
    T.preferred = ofld::policy::preferredDevices(
        T.count, [&](int D) { return T.host_target[D] != 0; });
    return T;
  }();
  return Table;
}
inline const std::vector<int> &preferredDevices() {
  return devices().preferred;
}

/// ofld::set_default_device's number; -1: none.
inline std::atomic<int> &userDefault() {
  static std::atomic<int> D{-1};
  return D;
}

/// What device selection knows of this machine and how the default device
/// was chosen (offload/policy/devices.hpp).
inline ofld::policy::DeviceFacts deviceFacts() {
  const device_table &T = devices();
  return {T.preferred.data(), int(T.preferred.size()), T.count};
}
inline ofld::policy::DefaultSetting defaultSetting() {
  ofld::policy::DefaultSetting S;
  S.Program = userDefault().load();
  S.FromEnvironment = devices().default_from_env;
  if (S.FromEnvironment)
    S.EnvironmentDevice = omp_get_default_device();
  return S;
}

/// The OpenMP device for a launch that asks for offload device `Requested`
/// (-1: the default) on a queue of `QueueDevice` (-1: the default queue),
/// or the initial device (the host) where the kernel runs there. Reports
/// what names no device, and returns -2 then.
inline int selectDevice(const site *S, int Requested, int QueueDevice = -1) {
  const ofld::policy::Selection Choice = ofld::policy::selectLaunchDevice(
      deviceFacts(), defaultSetting(), offloadPolicy(), Requested, QueueDevice);
  if (Choice.Failed) {
    fail(S, "%s", Choice.Cause);
    return -2;
  }
  return Choice.Device < 0 ? devices().initial : Choice.Device;
}

/// The OpenMP device that data of offload device `Requested` (-1: the
/// default) lives on, for an ofld::region or a device_buffer (`What`, at
/// `P`), or the initial device where kernels run on the host. Reports a
/// number that names no device, and returns -2 then.
inline int dataDevice(const __ofld_place *P, const char *What, int Requested) {
  const ofld::policy::Selection Choice = ofld::policy::dataDevice(
      deviceFacts(), defaultSetting(), offloadPolicy(), Requested);
  if (Choice.Failed) {
    failAt(P, What, "%s", Choice.Cause);
    return -2;
  }
  return Choice.Device < 0 ? devices().initial : Choice.Device;
}

/// Whether device `D` runs its regions on this CPU (then the grid is
/// emulated there, one team per core).
inline bool runsOnCpu(int D) {
  const device_table &T = devices();
  return D == T.initial || (D >= 0 && D < T.count && T.host_target[D]);
}

/// This OS thread's CPU grid state, and the scheduler of detail/cpu_grid.hpp.
inline ofld::detail::cpu_grid_state *hostState() {
  static thread_local ofld::detail::cpu_grid_state S;
  return &S;
}
inline constexpr cpu_hooks HostHooks = {&hostState, &__ofld_cpu_barrier,
                                        &__ofld_cpu_finish_block,
                                        &__ofld_cpu_shared, &__ofld_cpu_warp};
/// Host code of this module finds the CPU grid from the start (the CPU
/// fallback's offload() of calls that were not rewritten, too).
inline const bool HostHooksInstalled = (__ofld_bridge_hooks = &HostHooks, true);

} // namespace detail
} // namespace ofld::bridge
#endif

#endif // OFFLOAD_BRIDGE_DEVICES_HPP
