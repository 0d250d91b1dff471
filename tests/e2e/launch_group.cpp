//===- launch_group.cpp - end-to-end: consecutive launches share data -----===//
//
// Part of the offload project's tests. Three launches in a row use `v`: it
// moves in once before the first and back once after the last (issue 6,
// item 4). `sum` is used by one launch only and moves as usual. Every
// element and the sum are checked against the host.
//
//===----------------------------------------------------------------------===//

#include "expect.h"

#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void scale(std::span<float> v, float a) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] *= a;
}
[[offload::kernel]] void shift(std::span<float> v, float b) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] += b;
}
[[offload::kernel]] void total(std::span<const float> v, float &sum) {
  if (ofld::global_id() == 0) {
    float s = 0;
    for (float x : v)
      s += x;
    sum = s;
  }
}

int main() {
  std::vector<float> v(1000), ref(1000);
  float sum = -1, ref_sum = 0;
  for (int i = 0; i < 1000; ++i) {
    v[i] = float(i % 10);
    ref[i] = v[i] * 3.0f + 1.0f;
    ref_sum += ref[i]; // small integers: exact in any order
  }
  offload(scale, v, 3.0f);
  offload(shift, v, 1.0f);
  offload(total, v, sum);
  // Back on the host.
  bool ok = e2e::mismatches("v", v, ref) == 0;
  ok &= e2e::expect_eq("sum", sum, ref_sum);
  std::printf("v[0] = %g, v[999] = %g, sum = %g: %s\n", v[0], v[999], sum,
              ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
