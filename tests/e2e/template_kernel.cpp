//===- template_kernel.cpp - end-to-end: a kernel template, two instantiations ===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//

#include "expect.h"

#include <cstdio>
#include <span>
#include <vector>

template <class T>
[[offload::kernel]] void axpb(T a, T b, std::span<T> v) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] = a * v[i] + b;
}

int main() {
  std::vector<int> vi(1000), ri(1000);
  std::vector<double> vd(777), rd(777);
  for (int i = 0; i < 1000; ++i) {
    vi[i] = i % 50 - 25;
    ri[i] = 2 * vi[i] + 1;
  }
  for (int i = 0; i < 777; ++i) {
    vd[i] = 0.25 * (i % 9);
    rd[i] = 4.0 * vd[i] - 1.0;
  }
  offload(axpb<int>, 2, 1, vi);
  offload(axpb<double>, 4.0, -1.0, vd);
  bool ok = e2e::mismatches("int", vi, ri) == 0;
  ok &= e2e::mismatches("double", vd, rd) == 0;
  std::printf("int %d double %.2f: %s\n", vi[999], vd[776], ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
