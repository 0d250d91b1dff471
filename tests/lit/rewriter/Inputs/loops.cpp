//===- loops.cpp - loops whose launches keep their data on the device -----===//
//
// Part of the offload project's tests (issue 30, loop residency in
// offload-rewrite: loop-residency.test). Each function's arrays have a size
// of their own, so that the OpenMP runtime's log of copies tells them apart:
// a plain loop of two launches, a while loop, nested loops (the outer holds
// what qualifies there, the inner what the outer's host code reads), a host
// read that keeps the per-launch copies, a to-only and a from-only variable
// (a loop whose launch never runs must not copy it back), a launch group in
// a loop (the loop holds, not the group), a launch in a macro argument.
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void step(std::span<const float> in, std::span<float> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = in[i] + 1.0f;
}
[[offload::kernel]] void add(std::span<float> v, float x) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] += x;
}
[[offload::kernel]] void accumulate(std::span<const float> in,
                                    std::span<float> acc) {
  std::size_t i = ofld::global_id();
  if (i < acc.size())
    acc[i] += in[i];
}
[[offload::kernel]] void fill(float x, [[offload::out]] std::span<float> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = x;
}

/// a and b: 64 bytes each, held (tofrom).
float pingpong(int steps) {
  std::vector<float> a(16, 0.0f), b(16, 0.0f);
  for (int t = 0; t < steps; ++t) {
    offload(step, a, b);
    offload(step, b, a);
  }
  return a[0];
}

/// w: 80 bytes, held.
float while_loop(int steps) {
  std::vector<float> w(20, 0.0f);
  int t = 0;
  while (t < steps) {
    offload(add, w, 1.0f);
    ++t;
  }
  return w[0];
}

/// n: 96 bytes, held by the outer loop; m: 112 bytes, read by the outer
/// loop's host code, held by the inner loop on each outer trip.
float nested(int outer, int inner) {
  std::vector<float> n(24, 0.0f), m(28, 0.0f);
  float seen = 0;
  for (int i = 0; i < outer; ++i) {
    offload(add, n, 1.0f);
    for (int j = 0; j < inner; ++j)
      offload(add, m, 1.0f);
    seen += m[0];
  }
  return n[0] * 100 + seen;
}

/// h: 128 bytes, read by the host every trip: copied per launch.
float host_reads(int steps) {
  std::vector<float> h(32, 0.0f);
  float seen = 0;
  for (int t = 0; t < steps; ++t) {
    offload(add, h, 1.0f);
    seen += h[0];
  }
  return seen;
}

/// src: 200 bytes, only read (to); acc: 208 bytes (tofrom).
float to_only(int steps) {
  std::vector<float> src(50, 2.0f), acc(52, 0.0f);
  for (int t = 0; t < steps; ++t)
    offload(accumulate, src, acc);
  return acc[0];
}

/// out: 216 bytes (224 where the launch never runs), only written (from).
float from_only(int steps, bool run, int size) {
  std::vector<float> out(size, 7.0f);
  for (int t = 0; t < steps; ++t)
    if (run)
      offload(fill, float(t), out);
  return out[size - 1];
}

/// g: 240 bytes; two launches in a row (a launch group) in a loop.
float group_in_loop(int steps) {
  std::vector<float> g(60, 0.0f);
  for (int t = 0; t < steps; ++t) {
    offload(add, g, 1.0f);
    offload(add, g, 2.0f);
  }
  return g[0];
}

#define TWICE(statement) statement statement

/// k: 248 bytes; a launch written in a macro argument: the loop holds
/// nothing (the formatting of its block would reach the launch's text),
/// each launch copies its own.
float in_macro(int steps) {
  std::vector<float> k(62, 0.0f);
  for (int t = 0; t < steps; ++t) {
    TWICE(offload(add, k, 1.0f);)
  }
  return k[0];
}

int main() {
  std::printf("pingpong %g\n", pingpong(3));
  std::printf("while %g\n", while_loop(4));
  std::printf("nested %g\n", nested(2, 3));
  std::printf("host_reads %g\n", host_reads(3));
  std::printf("to_only %g\n", to_only(3));
  std::printf("from_only %g\n", from_only(3, true, 54));
  std::printf("from_only never %g\n", from_only(3, false, 56));
  std::printf("group %g\n", group_in_loop(2));
  std::printf("in_macro %g\n", in_macro(2));
  return 0;
}
