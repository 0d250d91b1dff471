//===- stream_order.cpp - end-to-end: launches run in the order issued ----===//
//
// Part of the offload project's tests. Dependent launches that do not wait
// (.nowait, queues) give exact results only if they run in the order they
// were issued: each step maps v[i] to v[i] * 3 + step (mod 2^32), which no
// other order reproduces. On a GPU the resident parts go to the queues'
// streams directly; the others through libomptarget on the queues' workers.
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp> // optional with the plugin

#include "expect.h"

#include <cstdint>
#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void fill(std::span<std::uint32_t> v, std::uint32_t x) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] = x;
}

[[offload::kernel]] void add(std::span<std::uint32_t> v, std::uint32_t x) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] += x;
}

[[offload::kernel]] void step(std::span<std::uint32_t> v, std::uint32_t s) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] = v[i] * 3u + s + std::uint32_t(i);
}

static std::uint32_t expected(std::uint32_t start, int first, int steps,
                              std::size_t i) {
  std::uint32_t x = start;
  for (int s = first; s < first + steps; ++s)
    x = x * 3u + std::uint32_t(s) + std::uint32_t(i);
  return x;
}

static bool check(const char *what, const std::vector<std::uint32_t> &v,
                  std::uint32_t start, int first, int steps) {
  std::size_t bad = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    bad += v[i] != expected(start, first, steps, i);
  std::printf("%s: %s\n", what, bad ? "WRONG" : "ok");
  return !bad;
}

int main() {
  bool ok = true;
  const ofld::launch later{.nowait = true};

  // The race of issue 15: fill then add, neither waiting, data not resident.
  std::vector<std::uint32_t> a(1 << 16, 7);
  offload(later, fill, a, 1u);
  offload(later, add, a, 2u);
  ofld::wait();
  std::size_t wrong = 0;
  for (std::uint32_t x : a)
    wrong += x != 3;
  std::printf("fill then add: a[0] = %u: %s\n", a[0], wrong ? "WRONG" : "ok");
  ok &= !wrong;

  // 1000 dependent launches, every one copying v in and back (libomptarget's
  // path), none waiting: the default queue keeps them in order.
  std::vector<std::uint32_t> v(4096, 1);
  for (int s = 0; s < 1000; ++s)
    offload(later, step, v, std::uint32_t(s));
  ofld::wait();
  ok &= check("1000 nowait launches, data copied each time", v, 1, 0, 1000);

  // The same on resident data, half of them .nowait, half waiting, on a
  // queue of its own: nothing moves until the region ends.
  std::vector<std::uint32_t> r(4096, 2);
  ofld::queue q{0};
  {
    ofld::region keep{std::span<std::uint32_t>(r)};
    for (int s = 0; s < 1000; ++s)
      offload(ofld::launch{.nowait = s % 2 == 0, .queue = q}, step, r,
              std::uint32_t(s));
    q.wait();
  }
  ok &= check("1000 queue launches on resident data", r, 2, 0, 1000);

  // Two queues, each with its own data, overlap; each stays in order.
  std::vector<std::uint32_t> x(8192, 3), y(512, 4);
  ofld::queue qx{0}, qy{0};
  {
    ofld::region keep{std::span<std::uint32_t>(x), std::span<std::uint32_t>(y)};
    for (int s = 0; s < 200; ++s) {
      offload(ofld::launch{.queue = qx}, step, x, std::uint32_t(s));
      offload(ofld::launch{.queue = qy}, step, y, std::uint32_t(s));
    }
  } // the region's end waits for both queues
  ok &= check("queue x", x, 3, 0, 200);
  ok &= check("queue y", y, 4, 0, 200);

  // Mixed on one queue: resident launches, then one that must copy data
  // (and does not wait), then resident launches again, which line up
  // behind it.
  std::vector<std::uint32_t> m(2048, 5), side(2048, 0);
  {
    ofld::region keep{std::span<std::uint32_t>(m)};
    for (int s = 0; s < 50; ++s)
      offload(later, step, m, std::uint32_t(s));
    offload(later, fill, side, 9u); // side is not resident
    for (int s = 50; s < 100; ++s)
      offload(later, step, m, std::uint32_t(s));
    ofld::wait();
  }
  ok &= check("resident, copying, resident on one queue", m, 5, 0, 100);
  ok &= e2e::mismatches("side", side,
                        std::vector<std::uint32_t>(side.size(), 9u)) == 0;

  std::printf("%s\n", ok ? "stream order: ok" : "stream order: FAIL");
  return ok ? 0 : 1;
}
