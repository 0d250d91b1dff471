//===- HostPropertiesTest.cpp - ofld::properties of the CPU --------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// offload/detail/host_properties.hpp, which libofld_rt, the OpenMP bridge
// and builds without OpenMP share for the CPU as a device: the limits are
// the CPU emulation's, the rest this machine's; and the reader of /proc's
// "key : value" lines, on a file the test writes.
//
//===----------------------------------------------------------------------===//

#include "offload/detail/host_properties.hpp"
#include "offload/properties.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

#include <sys/utsname.h>
#include <unistd.h>

TEST_CASE("the CPU's properties: the emulation's limits, the machine's "
          "facts",
          "[properties]") {
  __ofld_device_info I;
  ofld::detail::host_device_info(I);
  utsname U;
  REQUIRE(uname(&U) == 0);
  CHECK(std::string(I.arch) == U.machine);
  CHECK(std::string(I.name).size() > 0);
  CHECK(I.multiprocessors == sysconf(_SC_NPROCESSORS_ONLN));
  CHECK(I.global_memory > 0);
  CHECK(I.free_memory > 0);
  CHECK(I.free_memory <= I.global_memory);
  CHECK(I.warp_size == 32);
  CHECK(I.max_threads_per_block == 1024);
  CHECK(I.max_grid[0] == 2147483647);
  CHECK(I.max_grid[1] == 65535);
  CHECK(I.max_block[2] == 64);
  CHECK(I.shared_memory_per_block == 48 * 1024);
  CHECK(I.clock_khz >= 0);
}

TEST_CASE("a /proc field: the first line of the key, blanks and newline "
          "removed",
          "[properties]") {
  char Path[] = "/tmp/offload-proc-XXXXXX";
  int Fd = mkstemp(Path);
  REQUIRE(Fd >= 0);
  const char Text[] = "processor\t: 0\nmodel name\t: Some CPU @ 2.00GHz\n"
                      "model name\t: Another\ncpu MHz\t\t: 1996.250\n";
  REQUIRE(write(Fd, Text, sizeof(Text) - 1) == ssize_t(sizeof(Text) - 1));
  close(Fd);
  char Value[64];
  CHECK(ofld::detail::proc_field(Path, "model name", Value, sizeof(Value)));
  CHECK(std::string(Value) == "Some CPU @ 2.00GHz");
  CHECK(ofld::detail::proc_field(Path, "cpu MHz", Value, sizeof(Value)));
  CHECK(std::string(Value) == "1996.250");
  CHECK_FALSE(ofld::detail::proc_field(Path, "flags", Value, sizeof(Value)));
  char Small[5];
  CHECK(ofld::detail::proc_field(Path, "model name", Small, sizeof(Small)));
  CHECK(std::string(Small) == "Some");
  std::remove(Path);
  CHECK_FALSE(
      ofld::detail::proc_field(Path, "model name", Value, sizeof(Value)));
}
