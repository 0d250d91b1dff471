//===- Environment.cpp - the runtime's settings from the environment ------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "Environment.h"

#include <cstdlib>
#include <cstring>
#include <strings.h>

namespace ofld::detail {
namespace {

/// Set to anything but "0" (and not empty).
bool isOn(const char *Name) {
  const char *V = std::getenv(Name);
  return V && *V && std::strcmp(V, "0");
}

/// Set to exactly "0".
bool isOff(const char *Name) {
  const char *V = std::getenv(Name);
  return V && !std::strcmp(V, "0");
}

/// Set to `Value`, compared without regard to case.
bool isSetTo(const char *Name, const char *Value) {
  const char *V = std::getenv(Name);
  return V && !strcasecmp(V, Value);
}

/// A byte count with an optional K, M or G suffix; none if unset or bad.
std::optional<std::size_t> bytes(const char *Name) {
  const char *Env = std::getenv(Name);
  if (!Env || !*Env)
    return std::nullopt;
  char *End;
  unsigned long long V = std::strtoull(Env, &End, 10);
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

Environment read() {
  Environment E;
  if (isSetTo("OMP_TARGET_OFFLOAD", "MANDATORY"))
    E.Offload = Policy::Mandatory;
  else if (isSetTo("OMP_TARGET_OFFLOAD", "DISABLED"))
    E.Offload = Policy::Disabled;
  E.OmpDefaultDevice = std::getenv("OMP_DEFAULT_DEVICE") != nullptr;
  if (const char *Info = std::getenv("LIBOMPTARGET_INFO"))
    E.OmptargetInfo = std::strtoll(Info, nullptr, 0);
  E.CudaSchedBlocking = isSetTo("OFFLOAD_CUDA_SCHED", "blocking");
  E.SmallArgs = !isOff("OFFLOAD_SMALL_ARGS");
  E.FastLaunch = !isOff("OFFLOAD_FAST_LAUNCH");
  E.LaunchBlocking = isOn("OFFLOAD_LAUNCH_BLOCKING");
  E.Overlap = !isOff("OFFLOAD_OVERLAP");
  E.LaunchDebug = isOn("OFFLOAD_LAUNCH_DEBUG");
  E.Staging = !isOff("OFFLOAD_STAGING");
  E.StagingDebug = isOn("OFFLOAD_STAGING_DEBUG");
  const char *Engine = std::getenv("OFFLOAD_STAGING_ENGINE");
  E.StagingOmpEngine = Engine && !std::strcmp(Engine, "omp");
  E.StagingMin = bytes("OFFLOAD_STAGING_MIN");
  E.StagingThreads = bytes("OFFLOAD_STAGING_THREADS");
  E.StagingPiece = bytes("OFFLOAD_STAGING_PIECE");
  E.StagingSlots = bytes("OFFLOAD_STAGING_SLOTS");
  if (isOn("OFFLOAD_PROFILE")) {
    E.ProfileTable = true;
    std::string P = std::getenv("OFFLOAD_PROFILE");
    if (P.size() > 5 && P.compare(P.size() - 5, 5, ".json") == 0)
      E.ProfileTrace = P;
  }
  E.Cupti = !isOff("OFFLOAD_CUPTI");
  if (const char *Path = std::getenv("OFFLOAD_CUPTI");
      E.Cupti && Path && *Path && std::strcmp(Path, "1"))
    E.CuptiPath = Path;
  const char *Tool = std::getenv("NVTX_INJECTION64_PATH");
  E.NvtxTool = Tool && *Tool && !isOff("OFFLOAD_NVTX");
  return E;
}

} // namespace

const Environment &environment() {
  static const Environment E = read();
  return E;
}

} // namespace ofld::detail
