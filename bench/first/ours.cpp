//===- bench/first/ours.cpp - the cost of a program's first launch --------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// launch_first (issue 29): a program's first offload(), timed once per
// process, as a short benchmark program times its only kernel. The data is
// on the device first (a region, as a CUDA program cudaMemcpy's before its
// timer), so the timed call is the launch alone: what the launch path still
// sets up at that point (image loads, streams, pinned words) shows here and
// nowhere else. Also timed: the same kernel's second launch, and the first
// launch of a second kernel. One line per measure; bench/first/run.sh runs
// the program in fresh processes and reports the median.
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

[[offload::kernel]] void first_scale(std::span<float> x, float a) {
  std::size_t i = ofld::global_id();
  if (i < x.size())
    x[i] *= a;
}

[[offload::kernel]] void first_shift(std::span<float> x, float b) {
  std::size_t i = ofld::global_id();
  if (i < x.size())
    x[i] += b;
}

namespace {

double usSince(std::chrono::steady_clock::time_point T0) {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now() - T0)
      .count();
}

} // namespace

int main(int argc, char **argv) {
  std::size_t N = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1 << 20;
  std::vector<float> X(N, 1.0f);
  auto T = std::chrono::steady_clock::now();
  double Region, First, Second, Other;
  {
    ofld::region R{std::span(X)};
    Region = usSince(T);
    T = std::chrono::steady_clock::now();
    offload(first_scale, X, 2.0f);
    ofld::wait();
    First = usSince(T);
    T = std::chrono::steady_clock::now();
    offload(first_scale, X, 2.0f);
    ofld::wait();
    Second = usSince(T);
    T = std::chrono::steady_clock::now();
    offload(first_shift, X, 1.0f);
    ofld::wait();
    Other = usSince(T);
  }
  if (X[0] != 5.0f || X[N - 1] != 5.0f) {
    std::printf("bench: FAIL launch_first: x = %g, %g (want 5)\n", X[0],
                X[N - 1]);
    return 1;
  }
  std::printf("measure=launch_first impl=ours setup_us=%.1f first_us=%.1f "
              "second_us=%.1f other_first_us=%.1f\n",
              Region, First, Second, Other);
  return 0;
}
