//===- template_kernel.cpp - end-to-end: a kernel template, two instantiations ===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//

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
  std::vector<int> vi(1000, 3);
  std::vector<double> vd(777, 0.5);
  offload(axpb<int>, 2, 1, vi);
  offload(axpb<double>, 4.0, -1.0, vd);
  bool ok = vi.front() == 7 && vi.back() == 7 && vd.front() == 1.0 &&
            vd.back() == 1.0;
  std::printf("int %d double %.2f: %s\n", vi[999], vd[776], ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
