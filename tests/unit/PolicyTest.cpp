//===- PolicyTest.cpp - the rules libofld_rt and the bridge share ---------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// offload/policy/: device selection, the settings' values, the words of the
// errors both builds report and the union of overlapping ranges, on facts
// the test makes up (no device, no libomptarget).
//
//===----------------------------------------------------------------------===//

#include "offload/policy/devices.hpp"
#include "offload/policy/environment.hpp"
#include "offload/policy/errors.hpp"
#include "offload/policy/launch_limits.hpp"
#include "offload/policy/map_kinds.hpp"
#include "offload/policy/ranges.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace policy = ofld::policy;

namespace {
/// Two host-target devices (0, 1) and two GPUs (2, 3), as libomptarget may
/// number them.
const std::vector<int> Gpus = {2, 3};
const policy::DeviceFacts Mixed = {Gpus.data(), 2, 4};
const policy::DeviceFacts None = {nullptr, 0, 0};
} // namespace

TEST_CASE("host-target devices are told by their UID", "[policy]") {
  CHECK(policy::isHostTargetUid("x86_64-0"));
  CHECK(policy::isHostTargetUid("loongarch64-3"));
  CHECK_FALSE(policy::isHostTargetUid("CUDA-0"));
  CHECK_FALSE(policy::isHostTargetUid("x86_64"));
  CHECK_FALSE(policy::isHostTargetUid(nullptr));
  CHECK(policy::preferredDevices(4, [](int D) { return D < 2; }) == Gpus);
  CHECK(policy::preferredDevices(2, [](int) { return true; }) ==
        std::vector<int>{0, 1});
}

TEST_CASE("a launch's device", "[policy]") {
  policy::DefaultSetting NoDefault;
  auto Select = [&](policy::Offload P, int Requested, int Queue,
                    policy::DefaultSetting S = {}) {
    return policy::selectLaunchDevice(Mixed, S, P, Requested, Queue);
  };
  CHECK(Select(policy::Offload::Default, -1, -1).Device == 2);
  CHECK(Select(policy::Offload::Default, 1, -1).Device == 3);
  CHECK(Select(policy::Offload::Default, -1, 1).Device == 3);
  CHECK(Select(policy::Offload::Disabled, 7, -1).Device == -1);
  CHECK_FALSE(Select(policy::Offload::Disabled, 7, -1).Failed);

  policy::Selection Bad = Select(policy::Offload::Default, 2, -1);
  REQUIRE(Bad.Failed);
  CHECK(std::string(Bad.Cause) ==
        "device 2 does not exist (2 offload devices available)");
  Bad = Select(policy::Offload::Default, 0, 1);
  REQUIRE(Bad.Failed);
  CHECK(std::string(Bad.Cause) ==
        "the launch names device 0 but its queue is on device 1");

  policy::DefaultSetting Program;
  Program.Program = 5;
  Bad = Select(policy::Offload::Default, -1, -1, Program);
  REQUIRE(Bad.Failed);
  CHECK(std::string(Bad.Cause) == "default device 5 (ofld::set_default_device) "
                                  "does not exist (2 offload devices "
                                  "available)");

  // OMP_DEFAULT_DEVICE is OpenMP's number: any device, the host at the
  // count, an error only where offloading is mandatory.
  policy::DefaultSetting Env;
  Env.FromEnvironment = true;
  Env.EnvironmentDevice = 0;
  CHECK(Select(policy::Offload::Default, -1, -1, Env).Device == 0);
  Env.EnvironmentDevice = 4;
  CHECK(Select(policy::Offload::Default, -1, -1, Env).Device == -1);
  Env.EnvironmentDevice = 9;
  CHECK_FALSE(Select(policy::Offload::Default, -1, -1, Env).Failed);
  Bad = Select(policy::Offload::Mandatory, -1, -1, Env);
  REQUIRE(Bad.Failed);
  CHECK(std::string(Bad.Cause) == "default device 9 (OMP_DEFAULT_DEVICE) does "
                                  "not exist (4 offload devices available)");

  Bad = policy::selectLaunchDevice(None, NoDefault, policy::Offload::Mandatory,
                                   -1, -1);
  REQUIRE(Bad.Failed);
  CHECK(std::string(Bad.Cause) ==
        "no offload device is available and OMP_TARGET_OFFLOAD=MANDATORY "
        "forbids running on the host");
  CHECK(policy::selectLaunchDevice(None, NoDefault, policy::Offload::Default,
                                   -1, -1)
            .Device == -1);
}

TEST_CASE("the device of a region's or buffer's data", "[policy]") {
  policy::DefaultSetting Program;
  Program.Program = 5;
  // A bad default means the host here; a bad number is reported.
  CHECK(
      policy::dataDevice(Mixed, Program, policy::Offload::Default, -1).Device ==
      -1);
  CHECK_FALSE(
      policy::dataDevice(Mixed, Program, policy::Offload::Default, -1).Failed);
  CHECK(policy::dataDevice(Mixed, {}, policy::Offload::Default, 1).Device == 3);
  policy::Selection Bad =
      policy::dataDevice(Mixed, {}, policy::Offload::Default, 3);
  REQUIRE(Bad.Failed);
  CHECK(std::string(Bad.Cause) ==
        "device 3 does not exist (2 offload devices available)");
}

TEST_CASE("settings' values", "[policy]") {
  CHECK(policy::parseTargetOffload("mandatory") == policy::Offload::Mandatory);
  CHECK(policy::parseTargetOffload("Disabled") == policy::Offload::Disabled);
  CHECK(policy::parseTargetOffload("DEFAULT") == policy::Offload::Default);
  CHECK(policy::parseTargetOffload(nullptr) == policy::Offload::Default);
  CHECK(policy::isOn("yes"));
  CHECK_FALSE(policy::isOn("0"));
  CHECK_FALSE(policy::isOn(""));
  CHECK(policy::isOff("0"));
  CHECK_FALSE(policy::isOff(nullptr));
  CHECK(policy::parseBytes("4K") == std::size_t(4096));
  CHECK(policy::parseBytes("2m") == std::size_t(2) << 20);
  CHECK_FALSE(policy::parseBytes("12q"));
  CHECK_FALSE(policy::parseBytes(""));
}

TEST_CASE("error messages and deferral", "[policy]") {
  char Out[256];
  policy::formatSiteMessage(Out, sizeof(Out), "k", "f.cpp", 3, "why");
  CHECK(std::string(Out) == "offload: kernel 'k' at f.cpp:3: why");
  policy::formatSiteMessage(Out, sizeof(Out), nullptr, nullptr, 0, "why");
  CHECK(std::string(Out) == "offload: ofld::region: why");
  policy::formatPlaceMessage(Out, sizeof(Out), "ofld::device_buffer", "b.cpp",
                             9, "why");
  CHECK(std::string(Out) == "offload: ofld::device_buffer at b.cpp:9: why");
  policy::formatPlaceMessage(Out, sizeof(Out), "ofld::region", nullptr, 0,
                             "why");
  CHECK(std::string(Out) == "offload: ofld::region: why");
  CHECK(policy::defers(false));
  CHECK(policy::dueAt(2, 1, -1, -1));
  CHECK(policy::dueAt(2, 1, 2, -1));
  CHECK_FALSE(policy::dueAt(2, 1, 3, -1));
  CHECK_FALSE(policy::dueAt(2, 1, 2, 0));
}

TEST_CASE("overlapping ranges are mapped as their union", "[policy]") {
  using policy::MapFrom;
  using policy::MapTo;
  CHECK(policy::mergedTransfer(MapTo, MapFrom) == (MapTo | MapFrom));
  CHECK(policy::mergedTransfer(MapFrom, MapFrom) == MapFrom);
  // A range that copies back beside one that moves nothing: the union
  // copies in too, so the bytes nobody writes come back as they went.
  CHECK(policy::mergedTransfer(MapFrom, 0) == (MapTo | MapFrom));
  CHECK(policy::mergedTransfer(MapTo | policy::MapLiteral, MapTo) == MapTo);

  struct Range {
    std::uintptr_t First, Bytes;
    std::int64_t Type;
  };
  const Range R[] = {
      {100, 50, MapTo}, {400, 10, MapFrom}, {140, 20, MapFrom}, {0, 0, MapTo}};
  policy::RangeUnion Out[4];
  unsigned N = policy::uniteRanges(
      4, [&](unsigned I) { return R[I].First; },
      [&](unsigned I) { return R[I].Bytes; },
      [&](unsigned I) { return R[I].Type; }, Out);
  REQUIRE(N == 2);
  const policy::RangeUnion &U = Out[0].First == 100 ? Out[0] : Out[1];
  CHECK(U.Last == 160);
  CHECK(U.Transfer == (MapTo | MapFrom));
  CHECK(U.Merged);
}

TEST_CASE("the portable limits", "[policy]") {
  STATIC_REQUIRE(policy::PortableMaxThreads == 1024);
  STATIC_REQUIRE(policy::PortableMaxBlock[2] == 64);
  STATIC_REQUIRE(policy::MapToFrom == 3);
}
