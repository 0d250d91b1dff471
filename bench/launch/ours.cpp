//===- bench/launch/ours.cpp - launch latency of offload() ----------------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// launch_empty: offload() of a kernel without parameters (one block of one
// thread), timed from the host; offload() returns when the kernel is done.
// launch_1kb: a kernel with one 1 KB to-and-from argument (std::span<double>
// of 128 elements, default shape: one block of 256 threads), copied in and
// back by every call.
//
//===----------------------------------------------------------------------===//

#include "../common/bench.hpp"

#include <span>
#include <vector>

[[offload::kernel]] void launch_empty() {}

[[offload::kernel]] void launch_bump(std::span<double> v) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] += 1.0;
}

int main(int argc, char **argv) {
  bench::Args a = bench::parse(argc, argv, {1000, 50, 128, ""});
  if (ofld::device_count() < 1)
    bench::no_device(argv[0], "ofld::device_count() is 0");

  if (bench::wanted(a, "launch_empty")) {
    bench::phase("launch_empty", "ours", "timed");
    // The launch returns once queued (nothing to copy back): wait for it.
    bench::time_host(a, [] {
      offload(launch_empty);
      ofld::wait();
    }).report("launch_empty", "ours");
  }

  if (bench::wanted(a, "launch_1kb")) {
    // Integers, so that adding 1 per call stays exact.
    std::vector<double> v(a.n);
    for (std::size_t i = 0; i < v.size(); ++i)
      v[i] = double(i * 7 % 1000 + 1);
    bench::phase("launch_1kb", "ours", "timed");
    bench::Samples s = bench::time_host(a, [&] { offload(launch_bump, v); });
    bench::phase("launch_1kb", "ours", "after");
    const double calls = a.warmup + a.reps;
    bench::check("launch_1kb", "ours", v.data(), v.size(), [&](std::size_t i) {
      return double(i * 7 % 1000 + 1) + calls;
    });
    char extra[48];
    std::snprintf(extra, sizeof extra, "arg_bytes=%zu",
                  v.size() * sizeof(double));
    s.report("launch_1kb", "ours", 0, extra);
  }
  return 0;
}
