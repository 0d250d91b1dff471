//===- loop_residency.cpp - end-to-end: loops keep their data on the device ===//
//
// Part of the offload project's tests (issue 30). Loops whose launches map
// data nothing else in the loop touches copy it in once before the loop's
// first launch and back once after the loop, on every way out: the normal
// end, break, return, goto and a throw; a loop that never launches moves
// nothing; nested loops hold in the outermost; a host read in the loop keeps
// the per-launch copies of what it reads (a BFS level loop's flag too). Each result is checked against the
// host; tests/lit/e2e/loop_residency.test counts the copies
// (OFFLOAD_PROFILE) and runs it with the switch off too.
//
//===----------------------------------------------------------------------===//

#include "expect.h"

#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void add(std::span<float> v, float x) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] += x;
}
[[offload::kernel]] void step(std::span<const float> in, std::span<float> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = in[i] + 1.0f;
}

[[offload::kernel]] void relax(std::span<int> level, int depth,
                               bool &changed) {
  std::size_t i = ofld::global_id();
  if (i < level.size() && level[i] == depth && i + 64 < level.size() &&
      level[i + 64] < 0) {
    level[i + 64] = depth + 1;
    changed = true;
  }
}

constexpr int N = 256;

/// a <- a + 2 per trip, through b: both held, each ToFrom.
float pingpong(int steps) {
  std::vector<float> a(N, 0.0f), b(N, 0.0f);
  for (int t = 0; t < steps; ++t) {
    offload(step, a, b);
    offload(step, b, a);
  }
  return a[N - 1];
}

float zero_trips(int steps) {
  std::vector<float> z(N, 5.0f);
  for (int t = 0; t < steps; ++t)
    offload(add, z, 1.0f);
  return z[0];
}

float with_break(int limit) {
  std::vector<float> w(N, 0.0f);
  int t = 0;
  while (true) {
    offload(add, w, 1.0f);
    if (++t == limit)
      break;
  }
  return w[N - 1];
}

/// `r` is the caller's: the copy back must reach it before the return.
void with_return(std::vector<float> &r, int limit) {
  for (int t = 0;; ++t) {
    offload(add, r, 1.0f);
    if (t + 1 == limit)
      return;
  }
}

float with_goto(int limit) {
  std::vector<float> g(N, 0.0f);
  int t = 0;
  do {
    offload(add, g, 1.0f);
    if (++t == limit)
      goto done;
  } while (true);
done:
  return g[0];
}

float with_throw(int limit) {
  std::vector<float> x(N, 0.0f);
  try {
    for (int t = 0; t < 100; ++t) {
      offload(add, x, 1.0f);
      if (t + 1 == limit)
        throw t;
    }
  } catch (int) {
  }
  return x[N - 1];
}

float nested(int outer, int inner) {
  std::vector<float> n(N, 0.0f);
  for (int i = 0; i < outer; ++i)
    for (int j = 0; j < inner; ++j)
      offload(add, n, 1.0f);
  return n[0];
}

/// The host reads `h` every trip: its copies stay per launch; `k` is held.
float host_reads(int steps, float &seen) {
  std::vector<float> h(N, 0.0f), k(N, 0.0f);
  seen = 0;
  for (int t = 0; t < steps; ++t) {
    offload(add, h, 1.0f);
    offload(add, k, 2.0f);
    seen += h[0];
  }
  return k[0];
}

float queued(int steps) {
  std::vector<float> q(N, 0.0f);
  for (int t = 0; t < steps; ++t)
    offload(ofld::launch{.nowait = true}, add, q, 1.0f);
  // The loop's end waits for its queued launches already; without loop
  // residency this wait does.
  ofld::wait();
  return q[N - 1];
}

/// A BFS-style level loop: the host reads and resets `changed` every level
/// (its copies stay per launch), `level` is held.
int levels(int &last) {
  std::vector<int> level(N, -1);
  level[0] = 0;
  bool changed = true;
  int depth = 0;
  while (changed) {
    changed = false;
    offload(relax, level, depth, changed);
    ++depth;
  }
  last = level[N - 64];
  return depth + 10 * (level[1] + 1);
}

int main() {
  bool ok = true;
  ok &= e2e::expect_eq("pingpong", pingpong(5), 10.0f);
  ok &= e2e::expect_eq("zero_trips", zero_trips(0), 5.0f);
  ok &= e2e::expect_eq("with_break", with_break(4), 4.0f);
  std::vector<float> out(N, 0.0f);
  with_return(out, 3);
  ok &= e2e::expect_eq("with_return", out.at(N - 1), 3.0f);
  ok &= e2e::expect_eq("with_goto", with_goto(6), 6.0f);
  ok &= e2e::expect_eq("with_throw", with_throw(7), 7.0f);
  ok &= e2e::expect_eq("nested", nested(3, 4), 12.0f);
  float seen = 0;
  ok &= e2e::expect_eq("host_reads", host_reads(4, seen), 8.0f);
  ok &= e2e::expect_eq("host_reads seen", seen, 10.0f);
  ok &= e2e::expect_eq("queued", queued(5), 5.0f);
  int last = 0;
  ok &= e2e::expect_eq("levels", levels(last), 4);
  ok &= e2e::expect_eq("last level", last, 3);
  std::printf("loop residency: %s\n", ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
