//===- offload/policy/environment.hpp - reading the settings ----*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// How a setting's value is read, for every variable that libofld_rt and the
// OpenMP bridge both honour (OMP_TARGET_OFFLOAD, OMP_DEFAULT_DEVICE) and for
// the runtime's own OFFLOAD_* switches and sizes. The functions take the
// value (std::getenv's answer, null when unset) rather than a name, so each
// side keeps its own moment of reading and its own cache, and a value means
// the same thing to both.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_POLICY_ENVIRONMENT_HPP
#define OFFLOAD_POLICY_ENVIRONMENT_HPP

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <strings.h>

namespace ofld::policy {

/// OpenMP's variables, as both sides name them.
inline constexpr const char *TargetOffloadVar = "OMP_TARGET_OFFLOAD";
inline constexpr const char *DefaultDeviceVar = "OMP_DEFAULT_DEVICE";

/// OMP_TARGET_OFFLOAD: whether kernels may, must or must not leave the host.
enum class Offload { Default, Mandatory, Disabled };

/// `Value` compared with `Want` without regard to case; false when unset.
inline bool isSetTo(const char *Value, const char *Want) {
  return Value && !strcasecmp(Value, Want);
}

/// A switch that is on when set to anything but "0" (and not empty).
inline bool isOn(const char *Value) {
  return Value && *Value && std::strcmp(Value, "0");
}

/// A switch that is off only when set to exactly "0".
inline bool isOff(const char *Value) {
  return Value && !std::strcmp(Value, "0");
}

/// OMP_TARGET_OFFLOAD's value: MANDATORY or DISABLED in any case, else the
/// default.
inline Offload parseTargetOffload(const char *Value) {
  if (isSetTo(Value, "MANDATORY"))
    return Offload::Mandatory;
  if (isSetTo(Value, "DISABLED"))
    return Offload::Disabled;
  return Offload::Default;
}

/// Whether OMP_DEFAULT_DEVICE picks the default device: set at all (its
/// number is then OpenMP's, as omp_get_default_device() gives it).
inline bool defaultDeviceSet(const char *Value) { return Value != nullptr; }

/// A byte count with an optional K, M or G suffix; none where unset, empty
/// or malformed.
inline std::optional<std::size_t> parseBytes(const char *Value) {
  if (!Value || !*Value)
    return std::nullopt;
  char *End;
  unsigned long long V = std::strtoull(Value, &End, 10);
  switch (*End) {
  case 'k':
  case 'K':
    V <<= 10;
    break;
  case 'm':
  case 'M':
    V <<= 20;
    break;
  case 'g':
  case 'G':
    V <<= 30;
    break;
  case '\0':
    break;
  default:
    return std::nullopt;
  }
  return std::size_t(V);
}

} // namespace ofld::policy

#endif // OFFLOAD_POLICY_ENVIRONMENT_HPP
