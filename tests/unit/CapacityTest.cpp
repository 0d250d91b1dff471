//===- CapacityTest.cpp - can the device hold a launch's mappings ---------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// offload/detail/capacity.hpp, the rule the plugin's runtime and the bridge
// share, with a fake device: a free-memory answer, and an allocator that
// holds a given number of bytes.
//
//===----------------------------------------------------------------------===//

#include "offload/detail/capacity.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

namespace cap = ofld::detail::capacity;

namespace {
constexpr std::uint64_t MiB = std::uint64_t(1) << 20, GiB = MiB << 10;

/// A device whose allocator holds `Capacity` bytes; counts its trials.
struct FakeDevice {
  std::uint64_t Capacity, Used = 0;
  int Trials = 0, Released = 0;
  std::vector<std::uint64_t> Live;
  explicit FakeDevice(std::uint64_t C) : Capacity(C) {}
  int misfit(const std::vector<std::uint64_t> &Bytes, std::uint64_t Free) {
    return cap::firstMisfit(
        unsigned(Bytes.size()), [&](unsigned I) { return Bytes[I]; }, Free,
        [&](std::uint64_t B) -> void * {
          ++Trials;
          if (Used + B > Capacity)
            return nullptr;
          Used += B;
          Live.push_back(B);
          return reinterpret_cast<void *>(Live.size());
        },
        [&](void *P) {
          ++Released;
          Used -= Live[reinterpret_cast<std::uintptr_t>(P) - 1];
        });
  }
};
} // namespace

TEST_CASE("small ranges are not checked", "[capacity]") {
  CHECK_FALSE(cap::checked(16 << 10));
  CHECK_FALSE(cap::checked(cap::CheckedAbove));
  CHECK(cap::checked(cap::CheckedAbove + 1));
}

TEST_CASE("a free-memory answer that says yes decides alone", "[capacity]") {
  FakeDevice D(0); // any trial would fail
  CHECK(D.misfit({256 * MiB, 0, 512 * MiB}, 80 * GiB) == -1);
  CHECK(D.Trials == 0);
}

TEST_CASE("ranges must fit together, with the reserve", "[capacity]") {
  // Each of 200 MiB fits in 300 MiB free; both do not.
  FakeDevice D(300 * MiB);
  CHECK(D.misfit({200 * MiB, 200 * MiB}, 300 * MiB) == 1);
  CHECK(D.Trials == 2);
  CHECK(D.Released == 1);
  CHECK(D.Used == 0);
  // 256 MiB in 300 MiB free is within the reserve: tried, and it fits.
  FakeDevice E(300 * MiB);
  CHECK(E.misfit({256 * MiB}, 300 * MiB) == -1);
  CHECK(E.Trials == 1);
  CHECK(E.Used == 0);
}

TEST_CASE("the trial decides where the answer says no", "[capacity]") {
  // The answer is short (a pool may serve it): the allocation succeeds.
  FakeDevice D(512 * MiB);
  CHECK(D.misfit({256 * MiB}, 128 * MiB) == -1);
  CHECK(D.Trials == 1);
  // A device filled to 128 MiB (tests/e2e/out_of_memory.cpp): 256 MiB fail.
  FakeDevice F(128 * MiB);
  CHECK(F.misfit({256 * MiB}, 128 * MiB) == 0);
}

TEST_CASE("without an answer only 1 GiB and more is tried", "[capacity]") {
  FakeDevice D(100 * MiB);
  CHECK(D.misfit({512 * MiB}, cap::NoAnswer) == -1); // not tried
  CHECK(D.Trials == 0);
  CHECK(D.misfit({512 * MiB, GiB << 10}, cap::NoAnswer) == 1); // 1 TiB
  CHECK(D.Trials == 1);
}

TEST_CASE("sizes near the top do not wrap", "[capacity]") {
  CHECK(cap::footprint(cap::NoAnswer - 1) == cap::NoAnswer);
  CHECK(cap::footprint(1) == cap::Granule);
  CHECK_FALSE(cap::surelyFits(
      2, [](unsigned) { return cap::NoAnswer - 1; }, cap::NoAnswer - 1));
}

TEST_CASE("more trials than are held at once", "[capacity]") {
  std::vector<std::uint64_t> Ranges(cap::MaxHeldTrials + 4, 8 * MiB);
  FakeDevice D(GiB);
  CHECK(D.misfit(Ranges, 0) == -1);
  CHECK(D.Used == 0);
  CHECK(D.Released == int(Ranges.size()));
}

TEST_CASE("which ranges count: checked, new, not present", "[capacity]") {
  // Ranges 0 and 2 are the same; 1 is small; 3 is on the device already.
  int Data[4];
  const void *Ptrs[] = {&Data[0], &Data[1], &Data[0], &Data[3]};
  const std::uint64_t Bytes[] = {300 * MiB, 4 * MiB, 300 * MiB, 300 * MiB};
  int AskedFree = 0, AskedPresent = 0, Tried = 0;
  auto Misfit = [&](unsigned N, std::uint64_t Free) {
    return cap::firstMisfitOf(
        N, [&](unsigned I) { return Ptrs[I]; },
        [&](unsigned I) { return Bytes[I]; },
        [&](unsigned I) {
          ++AskedPresent;
          return I == 3;
        },
        [&] {
          ++AskedFree;
          return Free;
        },
        [&](std::uint64_t) -> void * {
          ++Tried;
          return nullptr;
        },
        [](void *) {});
  };
  // 300 MiB counted once (with the reserve, 364 MiB): it fits in 400.
  CHECK(Misfit(4, 400 * MiB) == -1);
  CHECK(AskedPresent == 2); // ranges 0 and 3: 1 is small, 2 a repeat
  CHECK(AskedFree == 1);
  CHECK(Tried == 0);
  // Range 0 alone on a full device: the free memory says no, the trial too.
  CHECK(Misfit(1, 0) == 0);
  CHECK(Tried == 1);
  // Nothing that counts: the device is not asked.
  AskedFree = 0;
  const void *Small[] = {&Data[1]};
  CHECK(cap::firstMisfitOf(
            1, [&](unsigned) { return Small[0]; },
            [&](unsigned) { return 4 * MiB; }, [](unsigned) { return false; },
            [&] {
              ++AskedFree;
              return std::uint64_t(0);
            },
            [](std::uint64_t) -> void * { return nullptr; },
            [](void *) {}) == -1);
  CHECK(AskedFree == 0);
}
