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
