//===- Environment.cpp - the runtime's settings from the environment ------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "Environment.h"

#include "offload/policy/environment.hpp"

#include <cstdlib>
#include <cstring>
#include <strings.h>

namespace ofld::detail {
namespace {

/// Set to anything but "0" (and not empty).
bool isOn(const char *Name) { return ofld::policy::isOn(std::getenv(Name)); }

/// Set to exactly "0".
bool isOff(const char *Name) { return ofld::policy::isOff(std::getenv(Name)); }

/// Set to `Value`, compared without regard to case.
bool isSetTo(const char *Name, const char *Value) {
  return ofld::policy::isSetTo(std::getenv(Name), Value);
}

/// A number of seconds (not negative); none if unset or bad.
std::optional<double> seconds(const char *Name) {
  const char *V = std::getenv(Name);
  if (!V || !*V)
    return std::nullopt;
  char *End = nullptr;
  double S = std::strtod(V, &End);
  if (*End || !(S >= 0))
    return std::nullopt;
  return S;
}

/// A byte count with an optional K, M or G suffix; none if unset or bad.
std::optional<std::size_t> bytes(const char *Name) {
  return ofld::policy::parseBytes(std::getenv(Name));
}

Environment read() {
  Environment E;
  E.Offload = ofld::policy::parseTargetOffload(
      std::getenv(ofld::policy::TargetOffloadVar));
  E.OmpDefaultDevice = ofld::policy::defaultDeviceSet(
      std::getenv(ofld::policy::DefaultDeviceVar));
  if (const char *Info = std::getenv("LIBOMPTARGET_INFO"))
    E.OmptargetInfo = std::strtoll(Info, nullptr, 0);
  E.CudaSchedBlocking = isSetTo("OFFLOAD_CUDA_SCHED", "blocking");
  E.SmallArgs = !isOff("OFFLOAD_SMALL_ARGS");
  if (isSetTo("OFFLOAD_ARENA_TO", "copy"))
    E.ArenaToDevice = Environment::ArenaTo::Copy;
  else if (isSetTo("OFFLOAD_ARENA_TO", "stream"))
    E.ArenaToDevice = Environment::ArenaTo::Stream;
  else if (isSetTo("OFFLOAD_ARENA_TO", "write"))
    E.ArenaToDevice = Environment::ArenaTo::Write;
  else if (isSetTo("OFFLOAD_ARENA_TO", "mapped"))
    E.ArenaToDevice = Environment::ArenaTo::Mapped;
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
  E.Timeout = seconds("OFFLOAD_TIMEOUT");
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
