//===- struct_spans.cpp - structs of spans through offload-rewrite --------===//
//
// Part of the offload project's tests. Every way a span field is reached
// (a base class, a nested struct, a C array and a std::array of structs, an
// [[offload::out]] field) and every form of the parameter (const S&, S&, S
// by value, modified by the kernel), inside an ofld::region of the struct
// and outside one. The program checks its own results.
//
//===----------------------------------------------------------------------===//

#include <array>
#include <cstddef>
#include <cstdio>
#include <span>
#include <vector>

struct Base {
  std::span<const int> ids;
};
struct Pair {
  std::span<const float> lo, hi;
};
struct Cell {
  std::span<float> mass;
  float w;
};
struct Data : Base {
  Pair pair;
  Cell cells[2];
  std::array<Cell, 1> more;
  [[offload::out]] std::span<float> out;
  int n;
};

float weight(const Data &d, std::size_t c) { return d.cells[c].w; }

[[offload::kernel]] void byConstRef(const Data &d, std::size_t n) {
  if (auto i = ofld::global_id(); i < n)
    d.out[i] = float(d.ids[i]) + d.pair.lo[i] * d.pair.hi[i] + weight(d, 1);
}

[[offload::kernel]] void byRef(Data &d, std::size_t n) {
  if (auto i = ofld::global_id(); i < n)
    d.cells[0].mass[i] += 1.0f;
}

[[offload::kernel]] void byValue(Data d, float f, std::size_t n) {
  d.n += 1; // its own copy
  if (auto i = ofld::global_id(); i < n)
    d.more[0].mass[i] *= f * float(d.n);
}

int main() {
  constexpr std::size_t N = 64;
  std::vector<int> ids(N);
  std::vector<float> lo(N, 2.0f), hi(N, 3.0f), m0(N, 1.0f), m1(N, 5.0f),
      m2(N, 1.0f), out(N, -1.0f);
  for (std::size_t i = 0; i < N; ++i)
    ids[i] = int(i);
  Data d;
  d.ids = ids;
  d.pair = {lo, hi};
  d.cells[0] = {m0, 0.5f};
  d.cells[1] = {m1, 0.25f};
  d.more[0] = {m2, 1.0f};
  d.out = out;
  d.n = 2;
  // byValue and byRef write no d.out, whose [[offload::out]] field brings
  // back what the device memory held (where no region holds it): the last
  // launch, byConstRef, writes it.
  offload(byValue, d, 2.0f, N); // m2 = 1 * 2 * 3
  {
    ofld::region r{d};
    offload(byRef, d, N);      // m0 = 2
    offload(byConstRef, d, N); // out[i] = i + 6.25
  }
  bool ok = d.n == 2 && m1[0] == 5.0f;
  for (std::size_t i = 0; i < N; ++i)
    ok &= out[i] == float(i) + 6.25f && m0[i] == 2.0f && m2[i] == 6.0f;
  std::printf("out[3] = %.2f, m0[0] = %.2f, m2[0] = %.2f: %s\n", out[3], m0[0],
              m2[0], ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
