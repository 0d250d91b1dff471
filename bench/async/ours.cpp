//===- ours.cpp - overlap of launches that do not wait --------------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// K launches of a kernel that keeps one block busy for a while, plus host
// work of about the same length:
//   serial   launch, wait, launch, wait, ..., then the host work
//   nowait   K launches with .nowait = true, each on a queue of its own,
//            the host work, ofld::wait()
// With overlap, nowait takes about the longest of the parts instead of their
// sum. Prints medians; ratio = nowait / serial.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

[[offload::kernel]] void spin(unsigned iterations, std::span<double> out) {
  double x = 1.0 + ofld::thread_id() * 1e-9;
  for (unsigned i = 0; i < iterations; ++i)
    x = x * 0.999999 + 1e-7;
  if (ofld::thread_id() == 0)
    out[0] = x;
}

static double hostWork(long n) {
  double x = 1.0;
  for (long i = 0; i < n; ++i)
    x = x * 0.999999 + 1e-7;
  return x;
}

int main(int argc, char **argv) {
  const int K = argc > 1 ? std::atoi(argv[1]) : 4;
  const unsigned Iterations = argc > 2 ? unsigned(std::atol(argv[2])) : 2000000;
  const long HostIterations = argc > 3 ? std::atol(argv[3]) : 20000000;
  const int Reps = 7;
  std::vector<std::vector<double>> out(K, std::vector<double>(1));
  ofld::launch one{.grid = {1}, .block = {32}};
  // Independent launches overlap on queues of their own (one queue keeps
  // its launches in order).
  std::vector<ofld::queue> queues;
  for (int k = 0; k < K; ++k)
    queues.push_back(ofld::queue{0});
  using Clock = std::chrono::steady_clock;
  auto ms = [](Clock::duration d) {
    return std::chrono::duration<double, std::milli>(d).count();
  };
  std::vector<double> serial, overlapped, kernelOnly, hostOnly;
  volatile double sink = 0;
  for (int r = 0; r < Reps + 1; ++r) {
    auto t0 = Clock::now();
    offload(one, spin, Iterations, out[0]);
    auto t1 = Clock::now();
    sink = sink + hostWork(HostIterations);
    auto t2 = Clock::now();
    for (int k = 0; k < K; ++k)
      offload(one, spin, Iterations, out[k]);
    sink = sink + hostWork(HostIterations);
    auto t3 = Clock::now();
    for (int k = 0; k < K; ++k)
      offload(
          ofld::launch{
              .grid = {1}, .block = {32}, .nowait = true, .queue = queues[k]},
          spin, Iterations, out[k]);
    sink = sink + hostWork(HostIterations);
    ofld::wait();
    auto t4 = Clock::now();
    if (r == 0)
      continue; // warm-up
    kernelOnly.push_back(ms(t1 - t0));
    hostOnly.push_back(ms(t2 - t1));
    serial.push_back(ms(t3 - t2));
    overlapped.push_back(ms(t4 - t3));
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  std::printf("measure=async_overlap impl=ours launches=%d kernel_ms=%.3f "
              "host_ms=%.3f serial_ms=%.3f nowait_ms=%.3f ratio=%.3f\n",
              K, median(kernelOnly), median(hostOnly), median(serial),
              median(overlapped), median(overlapped) / median(serial));
  return out[0][0] > 0 ? 0 : 1;
}
