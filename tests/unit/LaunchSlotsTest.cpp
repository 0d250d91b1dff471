//===- LaunchSlotsTest.cpp - parameter slots of stream-ordered launches ---===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// runtime/lib/launch/LaunchSlots.h: which mapped range a kernel parameter's
// device address comes from. The case that went wrong on an H100: two
// objects next to each other on the stack (a 16-byte tuple, then an 8-byte
// pair), the second's address one past the end of the first.
//
//===----------------------------------------------------------------------===//

#include "launch/LaunchSlots.h"

#include <catch2/catch.hpp>

#include <cstdint>

using ofld::detail::parameterAddress;

namespace {
struct Launch {
  alignas(16) char Stack[64] = {};
  void *Ptrs[3];
  std::int64_t Sizes[3];
  std::uintptr_t Addr[3];
  Launch() {
    // [0, 16) and [16, 24) of the stack; a 32-byte range at 32 not mapped.
    Ptrs[0] = Stack, Sizes[0] = 16, Addr[0] = 0x1000;
    Ptrs[1] = Stack + 16, Sizes[1] = 8, Addr[1] = 0x2000;
    Ptrs[2] = Stack + 32, Sizes[2] = 32, Addr[2] = 0;
  }
  std::uintptr_t at(int Offset, std::int64_t Bytes) const {
    return parameterAddress(reinterpret_cast<std::uintptr_t>(Stack + Offset),
                            Bytes, 3, Ptrs, Sizes, Addr);
  }
};
} // namespace

TEST_CASE("a parameter takes the device copy of its own range") {
  Launch L;
  CHECK(L.at(0, 16) == 0x1000);
  CHECK(L.at(16, 8) == 0x2000); // not 0x1010, one past the tuple's copy
}

TEST_CASE("a parameter inside a larger range is offset into it") {
  Launch L;
  CHECK(L.at(4, 8) == 0x1004);
  CHECK(L.at(8, 8) == 0x1008);
  CHECK(L.at(20, 4) == 0x2004);
}

TEST_CASE("an empty parameter may sit at the end of its range") {
  Launch L;
  CHECK(L.at(16, 0) == 0x1010); // the first range that holds it
  CHECK(L.at(24, 0) == 0x2008);
}

TEST_CASE("a parameter no mapped range holds gets no address") {
  Launch L;
  CHECK(L.at(12, 8) == 0); // straddles two ranges
  CHECK(L.at(32, 8) == 0); // its range has no device address
  CHECK(L.at(56, 16) == 0);
}

namespace {
/// A launch of a struct with two resident span fields: two mapped ranges,
/// the struct's word (a literal), the two fields' pointer slots.
struct StructLaunch {
  double A[4] = {}, B[4] = {};
  int Site = 0;
  void *Ptrs[5] = {A, B, nullptr, A + 1, B};
  std::int64_t Sizes[5] = {32, 32, 8, 24, 32};
  std::int64_t Types[5] = {__ofld_map_to, __ofld_map_to | __ofld_map_from,
                           __ofld_map_literal, 0, 0};
  std::uintptr_t Addr[2] = {0x1000, 0x2000};
  std::uint64_t Params[4] = {0, 42, 0x1008, 0x2000};
  void keep(ofld::detail::LaunchMemo &M, std::uint64_t Gen) const {
    M.keep(&Site, 0, Gen, 2, 5, Ptrs, Sizes, Types, Addr, Params);
  }
  bool recall(const ofld::detail::LaunchMemo &M, std::uint64_t Gen,
              std::uintptr_t *GotAddr, std::uint64_t *GotParams) const {
    return M.recall(&Site, 0, Gen, 2, 5, Ptrs, Sizes, Types, GotAddr,
                    GotParams);
  }
};
} // namespace

TEST_CASE("a launch memo gives back the addresses, with new literals") {
  StructLaunch L;
  ofld::detail::LaunchMemo M;
  L.keep(M, 7);
  L.Ptrs[2] = reinterpret_cast<void *>(std::uintptr_t(43)); // new scalar
  std::uintptr_t Addr[2] = {};
  std::uint64_t Params[4] = {9, 9, 9, 9};
  REQUIRE(L.recall(M, 7, Addr, Params));
  CHECK(Addr[0] == 0x1000);
  CHECK(Addr[1] == 0x2000);
  CHECK(Params[0] == 0);
  CHECK(Params[1] == 43);
  CHECK(Params[2] == 0x1008);
  CHECK(Params[3] == 0x2000);
}

TEST_CASE("a launch memo does not hold for other ranges or residency") {
  StructLaunch L;
  ofld::detail::LaunchMemo M;
  L.keep(M, 7);
  std::uintptr_t Addr[2];
  std::uint64_t Params[4];
  CHECK_FALSE(L.recall(M, 8, Addr, Params)); // a region began or ended
  StructLaunch Moved = L;
  Moved.Ptrs[1] = Moved.A; // another array in a field
  CHECK_FALSE(Moved.recall(M, 7, Addr, Params));
  StructLaunch Pointer = L;
  Pointer.Ptrs[3] = Pointer.A + 2; // a pointer slot moved within its range
  CHECK_FALSE(Pointer.recall(M, 7, Addr, Params));
  StructLaunch Shorter = L;
  Shorter.Sizes[0] = 16; // a span shrank
  CHECK_FALSE(Shorter.recall(M, 7, Addr, Params));
  StructLaunch Written = L;
  Written.Types[0] |= __ofld_map_from; // another launch's transfer bits
  CHECK_FALSE(Written.recall(M, 7, Addr, Params));
  ofld::detail::LaunchMemo Empty;
  CHECK_FALSE(L.recall(Empty, 7, Addr, Params));
}
