// Kernels with different parameter counts launched through the same offload()
// form in one file: every call shares the marker symbol but not its type.
// RUN: %clangxx %host-target -O2 %s -o %t %link-rt
// RUN: %t | FileCheck %s
// RUN: %clangxx %host-target -O0 %s -o %t0 %link-rt
// RUN: %t0 | FileCheck %s
// CHECK: 3 5 11: ok
// Every element of the three vectors is checked.

#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void one(std::span<int> v) {
  if (ofld::global_id() < v.size())
    v[ofld::global_id()] = 3;
}
[[offload::kernel]] void two(std::span<int> v, double x) {
  if (ofld::global_id() < v.size())
    v[ofld::global_id()] = int(x);
}
[[offload::kernel]] void three(std::span<int> v, int a, int b) {
  if (ofld::global_id() < v.size())
    v[ofld::global_id()] = a + b;
}

int main() {
  std::vector<int> a(100, -1), b(100, -1), c(100, -1);
  offload(one, a);
  offload(two, b, 5.0);
  offload(three, c, 4, 7);
  bool ok = true;
  for (int i = 0; i < 100; ++i)
    ok &= a[i] == 3 && b[i] == 5 && c[i] == 11;
  std::printf("%d %d %d: %s\n", a[99], b[99], c[99], ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
