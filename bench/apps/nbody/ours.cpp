//===- bench/apps/nbody/ours.cpp - n-body step with offload() -------------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// One all-pairs gravity step of n bodies (ref.hpp), the bodies resident in an
// ofld::region. One thread per body in blocks of kBlock; each block walks
// the bodies a tile of kBlock at a time through block-shared memory, as
// cuda.cu does. A repetition is one offload() call (launch and wait).
//
//   apps_nbody_ours [--n=BODIES (65536)] [--reps=R] [--warmup=W]
//
//===----------------------------------------------------------------------===//

#include "ref.hpp"

#include <cmath>
#include <span>
#include <vector>

using nbody::body;
using nbody::kBlock;

/// 1/sqrt(x) as CUDA's rsqrtf: one approximate instruction on the GPU
/// (<cmath> has no rsqrt; clang declares rsqrtf for NVPTX device code only).
inline float rsqrt(float x) {
#if defined(__NVPTX__)
  return rsqrtf(x);
#else
  return 1.0f / std::sqrt(x);
#endif
}

/// Needs blocks of kBlock threads (the tile is one body per thread).
[[offload::kernel]] void nbody_step(std::span<const body> pos,
                                    std::span<const body> vel,
                                    APPS_OUT std::span<body> pos1,
                                    APPS_OUT std::span<body> vel1, float dt,
                                    float eps2) {
  ofld::shared_array<body, kBlock> tile;
  const std::size_t n = pos.size();
  const std::size_t i = ofld::global_id();
  const unsigned t = ofld::thread_id();
  const body p = i < n ? pos[i] : body{0, 0, 0, 0};
  float ax = 0, ay = 0, az = 0;
  for (std::size_t base = 0; base < n; base += kBlock) {
    // Bodies past the end weigh nothing.
    tile[t] = base + t < n ? pos[base + t] : body{0, 0, 0, 0};
    ofld::sync_threads();
    for (unsigned k = 0; k < kBlock; ++k) {
      const body q = tile[k];
      float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
      float r2 = dx * dx + dy * dy + dz * dz + eps2;
      float inv = rsqrt(r2);
      float s = q.w * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    ofld::sync_threads();
  }
  if (i < n) {
    body v = vel[i];
    v.x += ax * dt;
    v.y += ay * dt;
    v.z += az * dt;
    vel1[i] = v;
    pos1[i] = {p.x + v.x * dt, p.y + v.y * dt, p.z + v.z * dt, p.w};
  }
}

int main(int argc, char **argv) {
  bench::Args a = bench::parse(argc, argv, {20, 3, 65536, ""});
  if (ofld::device_count() < 1)
    bench::no_device(argv[0], "ofld::device_count() is 0");
  const std::size_t n = a.n;
  std::vector<body> pos, vel, pos1(n), vel1(n);
  nbody::make_inputs(n, pos, vel);
  apps::poison(pos1);
  apps::poison(vel1);
  const ofld::launch shape{.grid = {unsigned((n + kBlock - 1) / kBlock)},
                           .block = {kBlock}};
  bench::Samples s;
  {
    // The outputs go in poisoned and come back at the closing brace.
    ofld::region resident{std::span<const body>(pos),
                          std::span<const body>(vel), std::span<body>(pos1),
                          std::span<body>(vel1)};
    s = bench::time_host(a, [&] {
      offload(shape, nbody_step, pos, vel, pos1, vel1, nbody::kDt,
              nbody::kEps2);
      // Launches on resident data return once queued (stream order):
      // wait for them, as the CUDA version synchronises.
      ofld::wait();
    });
  }
  nbody::check("ours", pos, vel, pos1, vel1);
  char extra[64];
  std::snprintf(extra, sizeof extra, "size=%zu", n);
  s.report(nbody::kMeasure, "ours", 0, extra);
  return 0;
}
