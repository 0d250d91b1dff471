// An overloaded kernel picked by a cast to its type, static_cast or C-style,
// plain and with a launch shape: each call launches the overload it names
// (float: y*a, double: y*a + 1, int: y + a, each one distinguishable).
// RUN: %clangxx %host-target -O2 %s -o %t %link-rt
// RUN: %t | FileCheck %s
// RUN: %if cuda %{ %clangxx %sm90 -O2 %s -o %t.sm90 %link-rt %}
// CHECK: float 6 double 7 int 5 shaped float 12 double 15: ok

#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void scale(std::span<float> y, float a) {
  if (ofld::global_id() < y.size())
    y[ofld::global_id()] *= a;
}
[[offload::kernel]] void scale(std::span<double> y, double a) {
  if (ofld::global_id() < y.size())
    y[ofld::global_id()] = y[ofld::global_id()] * a + 1;
}
[[offload::kernel]] void scale(std::span<int> y, int a) {
  if (ofld::global_id() < y.size())
    y[ofld::global_id()] += a;
}

int main() {
  std::vector<float> f(1000, 3.0f);
  std::vector<double> d(1000, 3.0);
  std::vector<int> i(1000, 3);
  offload(static_cast<void (*)(std::span<float>, float)>(scale), f, 2.0f);
  offload((void (*)(std::span<double>, double))scale, d, 2.0);
  offload(static_cast<void (*)(std::span<int>, int)>(&scale), i, 2);
  bool Ok = true;
  for (std::size_t k = 0; k < 1000; ++k)
    Ok = Ok && f[k] == 6.0f && d[k] == 7.0 && i[k] == 5;
  std::printf("float %g double %g int %d ", f[999], d[999], i[999]);
  offload(ofld::launch{.grid = {8}, .block = {128}},
          static_cast<void (*)(std::span<float>, float)>(scale), f, 2.0f);
  offload(ofld::launch{.grid = {8}, .block = {128}},
          static_cast<void (*)(std::span<double>, double)>(scale), d, 2.0);
  for (std::size_t k = 0; k < 1000; ++k)
    Ok = Ok && f[k] == 12.0f && d[k] == 15.0;
  std::printf("shaped float %g double %g: %s\n", f[999], d[999],
              Ok ? "ok" : "FAIL");
  return Ok ? 0 : 1;
}
