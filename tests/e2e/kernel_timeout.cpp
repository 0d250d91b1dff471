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
// `kernel_timeout chain` is no hang: ten queued kernels of about half a
// second each (the spin is timed here first), waited for by one ofld::wait()
// that lasts about five seconds. The watchdog counts the time since the
// last launch finished, so OFFLOAD_TIMEOUT=3 must let it finish.
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp>

#include <algorithm>
#include <chrono>
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

/// `n` steps of a generator nothing can shorten; the last value goes out.
[[offload::kernel]] void spin(std::span<unsigned> out, unsigned long long n) {
  unsigned x = 1;
  for (unsigned long long i = 0; i < n; ++i)
    x = x * 1664525u + 1013904223u + unsigned(i >> 7);
  out[0] = x;
}

/// Queues ten spins of about half a second each and waits for them all.
/// In a region, so that on a GPU they run in order on the runtime's CUDA
/// stream and ofld::wait() is one wait for all ten (through libomptarget,
/// each launch is a wait of its own).
int chain() {
  unsigned out[1] = {0};
  ofld::region keep{std::span<unsigned>(out)};
  const ofld::launch one{.grid = {1}, .block = {1}};
  auto time = [&](unsigned long long n) {
    auto t0 = std::chrono::steady_clock::now();
    offload(one, spin, std::span<unsigned>(out), n);
    ofld::wait(); // in the region the launch returns once queued
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
        .count();
  };
  // A first launch (which loads the image), then one timed: twelve launches
  // in all, whatever the machine.
  time(1);
  const unsigned long long n0 = 1ull << 24;
  unsigned long long n =
      (unsigned long long)(double(n0) * 0.5 / std::max(time(n0), 1e-4));
  const ofld::launch later{.grid = {1}, .block = {1}, .nowait = true};
  auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < 10; ++k)
    offload(later, spin, std::span<unsigned>(out), n);
  ofld::wait();
  double total =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  std::printf("chain: 10 kernels waited for in one ofld::wait(): %s\n",
              total > 3.0 ? "longer than 3 s" : "FAIL shorter than 3 s");
  return total > 3.0 ? 0 : 1;
}

int main(int argc, char **argv) {
  if (argc > 1 && !std::strcmp(argv[1], "chain"))
    return chain();
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
