//===- loop_aliasing.cpp - end-to-end: loop residency under other names ---===//
//
// Part of the offload project's tests (issue 30). A loop keeps data on the
// device only while the host cannot see it, and the host may see a held
// vector under another name: a `const std::vector<float> &` it reads every
// trip (FDTD's `fict[t]`) may be one of the vectors the kernels write, a
// `const float &` may point into one. Each function below runs twice, with
// distinct objects (the loop holds its arrays: one copy in and one out,
// tests/lit/e2e/loop_aliasing.test counts them) and with the aliased ones
// (the runtime holds nothing that overlaps what the host reads, so the
// host reads each trip's values). Fields of a struct passed by reference
// (`g.offsets`) are held like whole variables. Each result is checked
// against the same loop on the host.
//
//===----------------------------------------------------------------------===//

#include "expect.h"

#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void bump(std::span<float> v, float x) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] += x;
}
[[offload::kernel]] void follow(std::span<const float> in,
                                std::span<float> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = in[i] * 0.5f + 1.0f;
}
[[offload::kernel]] void gather(std::span<const int> index,
                                std::span<const int> value,
                                std::span<int> sum) {
  std::size_t i = ofld::global_id();
  if (i < sum.size())
    sum[i] += value[std::size_t(index[i])];
}

constexpr int N = 256;

/// FDTD's form: `src` is read on the host every trip. With `src` another
/// vector, `a` and `b` stay on the device; with `src` being `a`, the host
/// must read each trip's a[t].
float source_read(std::vector<float> &a, std::vector<float> &b,
                  const std::vector<float> &src, int steps) {
  for (int t = 0; t < steps; ++t) {
    offload(ofld::launch{.grid = {1}, .block = {N}}, bump, a, src[std::size_t(t)]);
    offload(ofld::launch{.grid = {1}, .block = {N}}, follow, a, b);
  }
  return a[0] + b[1];
}

/// The same on the host: what source_read must compute.
float source_read_host(std::vector<float> &a, std::vector<float> &b,
                       const std::vector<float> &src, int steps) {
  for (int t = 0; t < steps; ++t) {
    float x = src[std::size_t(t)];
    for (float &v : a)
      v += x;
    for (std::size_t i = 0; i < b.size(); ++i)
      b[i] = a[i] * 0.5f + 1.0f;
  }
  return a[0] + b[1];
}

/// A scalar the host reads through a reference, which may point into `a`.
float scalar_read(std::vector<float> &a, const float &scale, int steps) {
  float seen = 0;
  for (int t = 0; t < steps; ++t) {
    offload(bump, a, 1.0f);
    seen += scale;
  }
  return seen + a[0];
}

struct graph {
  std::vector<int> index, value;
};

/// The graph's arrays are fields of a reference: held, read-only.
int fields(const graph &g, std::vector<int> &sum, int steps) {
  for (int t = 0; t < steps; ++t)
    offload(gather, g.index, g.value, sum);
  return sum[0] + sum[N - 1];
}

int main() {
  bool ok = true;
  {
    std::vector<float> a(N, 1.0f), b(N, 0.0f), src(N, 2.0f);
    std::vector<float> ha = a, hb = b;
    src[1] = 3.0f;
    std::vector<float> hsrc = src;
    ok &= e2e::expect_eq("source_read", source_read(a, b, src, 4),
                         source_read_host(ha, hb, hsrc, 4));
  }
  {
    // src is a: each trip adds a[t], as the kernel left it.
    std::vector<float> a(N, 1.0f), b(N, 0.0f);
    std::vector<float> ha = a, hb = b;
    ok &= e2e::expect_eq("source_read aliased", source_read(a, b, a, 4),
                         source_read_host(ha, hb, ha, 4));
  }
  {
    std::vector<float> a(N, 0.0f);
    float scale = 3.0f;
    ok &= e2e::expect_eq("scalar_read", scalar_read(a, scale, 4), 16.0f);
    // scale is a[5]: 1 + 2 + 3 + 4, plus a[0] = 4.
    std::vector<float> b(N, 0.0f);
    ok &= e2e::expect_eq("scalar_read aliased", scalar_read(b, b[5], 4), 14.0f);
  }
  {
    graph g{std::vector<int>(N), std::vector<int>(N)};
    for (int i = 0; i < N; ++i) {
      g.index[std::size_t(i)] = N - 1 - i;
      g.value[std::size_t(i)] = i;
    }
    std::vector<int> sum(N, 0);
    // sum[0] += value[255] = 255, sum[255] += value[0] = 0, three times.
    ok &= e2e::expect_eq("fields", fields(g, sum, 3), 765);
  }
  std::printf("loop aliasing: %s\n", ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
