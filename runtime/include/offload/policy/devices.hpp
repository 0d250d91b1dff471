//===- offload/policy/devices.hpp - which device runs a launch --*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// libomptarget numbers the devices of all its plugins in one sequence, in the
// order in which the program's images find them: a binary with images for
// the host target and for sm_90 may see the host target's devices as 0-3 and
// the GPU as 4. offload numbers only the devices of the preferred kind, GPUs
// when there is one, else the host target's devices: ofld::device_count()
// counts them, ofld::launch{.device = n} and ofld::set_default_device(n) name
// the n-th of them, and a launch that names none runs on the first one.
// OMP_DEFAULT_DEVICE, where set, is libomptarget's number (OpenMP's meaning)
// and picks any device, the host target's too. Binaries for one kind of
// target see the same numbers either way.
//
// These rules are libofld_rt's and the OpenMP bridge's alike. They take the
// facts (the device count, each device's UID, the settings) from the caller
// and return a device or the words of a failure; they ask no runtime.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_POLICY_DEVICES_HPP
#define OFFLOAD_POLICY_DEVICES_HPP

#include "offload/policy/environment.hpp"
#include "offload/policy/errors.hpp"

#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <vector>

namespace ofld::policy {

/// The CPUs that LLVM's host offload plugins are named after: a device UID
/// "<cpu>-<n>" belongs to the host target (its "device" memory is host
/// memory).
inline constexpr const char *HostTargetPlugins[] = {
    "x86_64", "aarch64", "ppc64", "ppc64le", "s390x", "riscv64", "loongarch64"};

/// Whether the libomptarget device whose UID is `Uid` (null: unknown)
/// belongs to a host-target plugin.
inline bool isHostTargetUid(const char *Uid) {
  if (!Uid)
    return false;
  for (const char *Name : HostTargetPlugins) {
    std::size_t N = std::strlen(Name);
    if (!std::strncmp(Uid, Name, N) && Uid[N] == '-')
      return true;
  }
  return false;
}

/// The libomptarget numbers of the devices offload numbers from 0, among
/// `NumDevices`: the GPUs where there is one, else the host target's.
/// `IsHostTarget(D)` tells the kinds apart.
template <class IsHostTargetFn>
std::vector<int> preferredDevices(int NumDevices, IsHostTargetFn IsHostTarget) {
  std::vector<int> Gpus, Hosts;
  for (int D = 0; D < NumDevices; ++D)
    (IsHostTarget(D) ? Hosts : Gpus).push_back(D);
  return Gpus.empty() ? Hosts : Gpus;
}

/// What device selection needs to know of the machine.
struct DeviceFacts {
  /// preferredDevices(): offload's numbering.
  const int *Preferred;
  int PreferredCount;
  /// libomptarget's device count; OpenMP's number of the host (the initial
  /// device) is this number.
  int NumDevices;
};

/// How the program and the environment chose the default device.
struct DefaultSetting {
  /// ofld::set_default_device's number (offload's); -1: none.
  int Program = -1;
  /// OMP_DEFAULT_DEVICE is set (defaultDeviceSet), and OpenMP's default
  /// device then (omp_get_default_device()).
  bool FromEnvironment = false;
  int EnvironmentDevice = 0;
};

/// The device of launches (and regions) that name none.
struct DefaultDevice {
  /// libomptarget's number, or -1 for the host CPU.
  int Device;
  /// A number that names no device (then Device is -1), where it came from
  /// and how many devices it counts among.
  const char *BadSource = nullptr;
  int BadNumber = 0, BadAmong = 0;
  /// The program chose it (an error whatever the policy, like .device);
  /// else the environment did (an error where offloading is mandatory,
  /// otherwise OpenMP's choice of the host).
  bool BadFromProgram = false;
};

inline DefaultDevice defaultDevice(const DeviceFacts &Facts,
                                   const DefaultSetting &Setting) {
  if (Setting.Program != -1) {
    const int D = Setting.Program;
    if (D >= 0 && D < Facts.PreferredCount)
      return {Facts.Preferred[D]};
    return {-1, "ofld::set_default_device", D, Facts.PreferredCount, true};
  }
  if (Setting.FromEnvironment) {
    // OpenMP's number of the initial device (NumDevices) means the host.
    const int D = Setting.EnvironmentDevice;
    if (D >= 0 && D < Facts.NumDevices)
      return {D};
    if (D == Facts.NumDevices)
      return {-1};
    return {-1, "OMP_DEFAULT_DEVICE", D, Facts.NumDevices};
  }
  return {Facts.PreferredCount ? Facts.Preferred[0] : -1};
}

/// A device chosen: libomptarget's number, or -1 for the host CPU. Where
/// `Failed`, `Cause` says why in the words to report, and the launch (or
/// data) must not go to any device.
struct Selection {
  int Device = -1;
  bool Failed = false;
  char Cause[256];
};

namespace detail {
[[gnu::format(printf, 2, 3)]] inline Selection failed(Selection S,
                                                      const char *Format, ...) {
  va_list Args;
  va_start(Args, Format);
  std::vsnprintf(S.Cause, sizeof(S.Cause), Format, Args);
  va_end(Args);
  S.Device = -1;
  S.Failed = true;
  return S;
}
} // namespace detail

/// The device of a launch that names offload device `Requested` (-1: none)
/// and runs on a queue of offload device `QueueDevice` (-1: the default
/// queue), under policy `P`.
inline Selection selectLaunchDevice(const DeviceFacts &Facts,
                                    const DefaultSetting &Setting, Offload P,
                                    int Requested, int QueueDevice) {
  Selection S;
  // Everything runs here, whatever device the program names.
  if (P == Offload::Disabled)
    return S;
  // A queue belongs to one device: the launch runs there.
  if (QueueDevice != -1) {
    if (Requested != -1 && Requested != QueueDevice)
      return detail::failed(
          S, "the launch names device %d but its queue is on device %d",
          Requested, QueueDevice);
    Requested = QueueDevice;
  }
  if (Requested >= Facts.PreferredCount || Requested < -1) {
    noSuchDeviceCause(S.Cause, sizeof(S.Cause), Requested,
                      Facts.PreferredCount);
    S.Failed = true;
    return S;
  }
  DefaultDevice Default{-1};
  if (Requested < 0)
    Default = defaultDevice(Facts, Setting);
  if (Default.BadSource && (Default.BadFromProgram || P == Offload::Mandatory))
    return detail::failed(S,
                          "default device %d (%s) does not exist (%d offload "
                          "device%s available)",
                          Default.BadNumber, Default.BadSource,
                          Default.BadAmong, plural(Default.BadAmong));
  const int Device =
      Requested >= 0 ? Facts.Preferred[Requested] : Default.Device;
  if (Device < 0) {
    if (P == Offload::Mandatory)
      return detail::failed(S, "%s",
                            "no offload device is available and "
                            "OMP_TARGET_OFFLOAD=MANDATORY forbids running on "
                            "the host");
    return S;
  }
  S.Device = Device;
  return S;
}

/// The device that data of offload device `Requested` (-1: the default
/// device) lives on, for an ofld::region or a device_buffer: a default that
/// names no device means the host, as OpenMP's choice does.
inline Selection dataDevice(const DeviceFacts &Facts,
                            const DefaultSetting &Setting, Offload P,
                            int Requested) {
  Selection S;
  if (P == Offload::Disabled)
    return S;
  if (Requested == -1) {
    S.Device = defaultDevice(Facts, Setting).Device;
    return S;
  }
  if (Requested >= 0 && Requested < Facts.PreferredCount) {
    S.Device = Facts.Preferred[Requested];
    return S;
  }
  noSuchDeviceCause(S.Cause, sizeof(S.Cause), Requested, Facts.PreferredCount);
  S.Failed = true;
  return S;
}

} // namespace ofld::policy

#endif // OFFLOAD_POLICY_DEVICES_HPP
