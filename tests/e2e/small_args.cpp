//===- small_args.cpp - end-to-end: small ranges via the argument arena ---===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//
//
// Ranges of up to 16 KiB travel through pinned memory the device holds for
// good (runtime/lib/data/ArgArena.cpp); each launch gets a chunk of it that
// holds three ranges of the largest size.
// The results must not depend on which path a range takes:
//  * four 16 KiB spans in one launch: the fourth does not fit the chunk and
//    is mapped as usual;
//  * a struct with 128-byte alignment, by reference, read and written;
//  * one buffer as two overlapping spans: one range in the arena, and the
//    kernel's pointer to the second span lands at its offset in the copy;
//  * 40 launches in flight at once, more than the arena's 32 chunks;
//  * a span a region holds: the kernel uses the resident copy
//    (tests/lit/e2e/small_args.test counts what moves);
//  * bfs's level loop (bench/apps/bfs): a `bool &` flag, reset or set by
//    the host before each launch and set by many threads, next to resident
//    data: each launch must see the host's value at its call, whichever way
//    OFFLOAD_ARENA_TO sends it (the test runs every way).
//
//===----------------------------------------------------------------------===//

#include "expect.h"

#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void add4(std::span<double> a, std::span<double> b,
                              std::span<double> c, std::span<double> d) {
  std::size_t i = ofld::global_id();
  if (i < a.size()) {
    a[i] += 1.0;
    b[i] += 2.0;
    c[i] += a[i] + b[i];
    d[i] -= c[i];
  }
}

struct alignas(128) Accum {
  double sum;
  int count;
};

[[offload::kernel]] void accumulate(std::span<const double> in, Accum &acc) {
  if (ofld::global_id() == 0)
    for (double v : in) {
      acc.sum += v;
      ++acc.count;
    }
}

[[offload::kernel]] void shift(std::span<const int> from, std::span<int> to) {
  std::size_t i = ofld::global_id();
  if (i < to.size())
    to[i] = from[0] + int(i); // `to` starts 8 elements into `from`
}

[[offload::kernel]] void stamp(int value, std::span<int> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = value;
}

[[offload::kernel]] void mark(std::span<const int> v, int limit,
                              bool &changed) {
  std::size_t i = ofld::global_id();
  if (i < v.size() && v[i] > limit)
    changed = true;
}

static void add4_ref(std::vector<double> &a, std::vector<double> &b,
                     std::vector<double> &c, std::vector<double> &d) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] += 1.0;
    b[i] += 2.0;
    c[i] += a[i] + b[i];
    d[i] -= c[i];
  }
}

int main() {
  bool ok = true;
  auto expect = [&](bool cond, const char *what) {
    if (!cond)
      std::printf("FAIL: %s\n", what);
    ok = ok && cond;
  };

  // 2048 doubles = 16 KiB each: three fit one chunk, the fourth does not.
  // Small integers: exact whatever the order of the additions.
  std::vector<double> a(2048), b(2048), c(2048), d(2048);
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = double(i % 7);
    b[i] = double(i % 5) - 2.0;
    c[i] = double(i % 3);
    d[i] = -double(i % 11);
  }
  std::vector<double> ra = a, rb = b, rc = c, rd = d;
  offload(add4, a, b, c, d);
  add4_ref(ra, rb, rc, rd);
  // Host access in between: two launches, not a group.
  expect(e2e::mismatches("a", a, ra) + e2e::mismatches("b", b, rb) +
                 e2e::mismatches("c", c, rc) + e2e::mismatches("d", d, rd) ==
             0,
         "first add4");
  offload(add4, a, b, c, d);
  add4_ref(ra, rb, rc, rd);
  expect(e2e::mismatches("a", a, ra) == 0, "a");
  expect(e2e::mismatches("b", b, rb) == 0, "b");
  expect(e2e::mismatches("c", c, rc) == 0, "c");
  expect(e2e::mismatches("d", d, rd) == 0, "d");

  Accum acc{0.5, 0};
  std::vector<double> in(100);
  double in_sum = 0;
  for (int i = 0; i < 100; ++i) {
    in[i] = 0.25 * (i % 4);
    in_sum += in[i];
  }
  offload(accumulate, in, acc);
  expect(acc.count == 100 && acc.sum == 0.5 + in_sum, "first accumulate");
  offload(accumulate, in, acc);
  expect(acc.sum == 0.5 + 2 * in_sum && acc.count == 200, "aligned struct");

  std::vector<int> buf(64);
  for (int i = 0; i < 64; ++i)
    buf[i] = i + 100;
  std::span<int> all(buf);
  offload(shift, std::span<const int>(all.first(16)), all.subspan(8, 32));
  bool shifted = true;
  for (int i = 0; i < 64; ++i)
    shifted = shifted && buf[i] == (i >= 8 && i < 40 ? 100 + (i - 8) : i + 100);
  expect(shifted, "overlap");

  std::vector<std::vector<int>> outs(40, std::vector<int>(256, -1));
  for (int k = 0; k < 40; ++k)
    offload(ofld::launch{.nowait = true}, stamp, k, outs[k]);
  ofld::wait();
  for (int k = 0; k < 40; ++k)
    expect(e2e::mismatches("outs[k]", outs[k], std::vector<int>(256, k)) == 0,
           "in flight");

  std::vector<int> held(512, 0);
  {
    ofld::region resident{std::span<int>(held)};
    offload(stamp, 7, held);
  }
  expect(e2e::mismatches("held", held, std::vector<int>(512, 7)) == 0,
         "region");

  // Launch k: the host sets the flag every third time, and the kernel
  // sets it every second (the values above 100 of 0..255).
  std::vector<int> vals(256);
  for (int i = 0; i < 256; ++i)
    vals[i] = i;
  int flags = 0;
  {
    ofld::region resident{std::span<const int>(vals)};
    for (int k = 0; k < 12; ++k) {
      bool changed = k % 3 == 0;
      bool expected = changed || k % 2 == 1;
      offload(mark, std::span<const int>(vals), k % 2 ? 100 : 300, changed);
      expect(changed == expected, "flag");
      flags += changed;
    }
  }

  std::printf("a[0] = %.1f c[0] = %.1f sum = %.2f buf[9] = %d outs[39][0] = %d "
              "held[0] = %d flags = %d: %s\n",
              a[0], c[0], acc.sum, buf[9], outs[39][0], held[0], flags,
              ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
