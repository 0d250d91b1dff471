//===- struct_of_spans.cpp - end-to-end: a struct of spans as a parameter -===//
//
// Part of the offload project's tests. An XSBench-like SimulationData holds
// its arrays as std::span fields: a base class, a nested struct, a
// std::array of structs, const and non-const spans, an [[offload::out]]
// span and a pointer no kernel reads. Kernels take it by const S&, S& and
// by value; each span field moves as a span parameter of its type would.
// Known bytes per field (tests/lit/e2e/struct_of_spans.test checks the
// profile's transfers by argument), N = 256:
//   ids (int, const)          1024 B to the device
//   grid.energy, grid.xs      1024 B each, to the device
//   materials[0..1].density   1024 B each, to the device
//   result ([[offload::out]]) 1024 B back only
//   acc (float, mutable)      1024 B to and 1024 B back
//
//===----------------------------------------------------------------------===//

#include "expect.h"

#include <array>
#include <cstdio>
#include <span>
#include <vector>

struct Counted {
  std::span<const int> ids;
};
struct Grid {
  std::span<const float> energy;
  std::span<const float> xs;
};
struct Material {
  std::span<const float> density;
  float scale;
};
struct SimulationData : Counted {
  Grid grid;
  std::array<Material, 2> materials;
  [[offload::out]] std::span<float> result;
  std::span<float> acc;
  const char *name; // never read on the device: copied as bytes
  int n;
};

float material(const SimulationData &d, std::size_t i) {
  const Material &m = d.materials[i % 2];
  return m.density[i] * m.scale;
}

[[offload::kernel]] void lookup(const SimulationData &d, std::size_t n) {
  if (auto i = ofld::global_id(); i < n) {
    d.result[i] = d.grid.energy[i] + d.grid.xs[i] * material(d, i) + d.ids[i];
    d.acc[i] += 1.0f; // a const S& keeps a std::span<float> writable
  }
}

[[offload::kernel]] void twice(SimulationData d, std::size_t n) {
  if (auto i = ofld::global_id(); i < n)
    d.acc[i] *= float(d.n);
}

[[offload::kernel]] void shift(SimulationData &d, std::size_t n) {
  if (auto i = ofld::global_id(); i < n)
    d.acc[i] -= d.materials[1].scale;
}

int main() {
  constexpr std::size_t N = 256;
  std::vector<int> ids(N);
  std::vector<float> energy(N), xs(N), dens0(N), dens1(N), result(N, -1.0f),
      acc(N, 10.0f);
  for (std::size_t i = 0; i < N; ++i) {
    ids[i] = int(i % 7);
    energy[i] = float(i);
    xs[i] = 0.5f;
    dens0[i] = 2.0f;
    dens1[i] = 4.0f;
  }
  SimulationData d;
  d.ids = ids;
  d.grid = {energy, xs};
  d.materials = {Material{dens0, 1.0f}, Material{dens1, 0.25f}};
  d.result = result;
  d.acc = acc;
  d.name = "xs-lookup";
  d.n = 3;

  offload(lookup, d, N); // acc: 11
  // twice and shift do not write d.result: what its [[offload::out]] field
  // brings back from them is whatever the device memory held (an OpenMP
  // build's allocations differ from the plugin's), so lookup's is kept.
  const std::vector<float> looked = result;
  offload(twice, d, N); // acc: 33
  offload(shift, d, N); // acc: 32.75

  std::vector<float> wantResult(N), wantAcc(N, 32.75f);
  for (std::size_t i = 0; i < N; ++i) {
    float m = i % 2 ? 4.0f * 0.25f : 2.0f * 1.0f;
    wantResult[i] = float(i) + 0.5f * m + float(i % 7);
  }
  bool ok = e2e::mismatches("result", looked, wantResult) == 0;
  ok &= e2e::mismatches("acc", acc, wantAcc) == 0;
  std::printf("result[0] = %.2f, result[255] = %.2f, acc[0] = %.2f: %s\n",
              looked[0], looked[N - 1], acc[0], ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
