//===- kernel_timeout.cpp - end-to-end: a kernel that never finishes -------===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//
//
// A kernel that waits for a flag nobody sets never finishes: the program
// must not hang with nothing on the screen (issue 29). The runtime's
// watchdog names the kernel and its call site; with OFFLOAD_TIMEOUT=<s> the
// wait is an error that ends the program (exit status 1).
//
// `kernel_timeout` sets the flag before the launch: the kernel finishes and
// the program prints "released". `kernel_timeout hang` launches it with the
// flag clear: the launch never returns, and "returned" is never printed.
// `kernel_timeout hang queued` does it with .nowait and then waits in
// ofld::wait() (the runtime's stream path on GPUs).
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp>

#include <cstdio>
#include <cstring>
#include <span>

/// Spins until `go[0]` is set, then records that it saw it.
[[offload::kernel]] void wait_for(std::span<const int> go,
                                  std::span<int> seen) {
  const volatile int *flag = go.data();
  while (*flag == 0) {
  }
  seen[0] = 1;
}

int main(int argc, char **argv) {
  const bool hang = argc > 1 && !std::strcmp(argv[1], "hang");
  const bool queued = argc > 2 && !std::strcmp(argv[2], "queued");
  int go[1] = {hang ? 0 : 1};
  int seen[1] = {0};
  std::printf("launching with the flag %s\n", hang ? "clear" : "set");
  std::fflush(stdout);
  const ofld::launch one{.grid = {1}, .block = {1}};
  if (queued) {
    const ofld::launch later{.grid = {1}, .block = {1}, .nowait = true};
    offload(later, wait_for, std::span<const int>(go), std::span<int>(seen));
    std::printf("queued\n");
    std::fflush(stdout);
    ofld::wait();
  } else {
    offload(one, wait_for, std::span<const int>(go), std::span<int>(seen));
  }
  std::printf("returned: %s\n", seen[0] == 1 ? "released" : "FAIL not seen");
  return seen[0] == 1 ? 0 : 1;
}
