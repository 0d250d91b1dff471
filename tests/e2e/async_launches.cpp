//===- async_launches.cpp - end-to-end: launches that do not wait --------===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//

#include "expect.h"

#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void fill(int value, std::span<int> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = value + int(i % 3);
}

static std::vector<int> expected(int value, std::size_t n) {
  std::vector<int> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = value + int(i % 3);
  return v;
}

int main() {
  std::vector<int> a(1 << 18, 0), b(1 << 18, 0), c(1000, 0);
  ofld::launch async{.nowait = true};
  offload(async, fill, 1, a); // the three launches run concurrently
  offload(async, fill, 2, b);
  offload(ofld::launch{.block = {100}, .nowait = true}, fill, 3, c);
  long host = 0; // host work overlaps with them
  for (int i = 0; i < 1000000; ++i)
    host += i % 7;
  ofld::wait(); // results are valid from here on
  bool ok = e2e::mismatches("a", a, expected(1, a.size())) == 0;
  ok &= e2e::mismatches("b", b, expected(2, b.size())) == 0;
  ok &= e2e::mismatches("c", c, expected(3, c.size())) == 0;
  ok &= e2e::expect_eq("host", host, 2999997);
  std::printf("a[5] = %d b[last] = %d c[999] = %d: %s\n", a[5], b.back(),
              c[999], ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
