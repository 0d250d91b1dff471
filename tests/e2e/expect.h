//===- expect.h - end-to-end checks: every element against a reference ---===//
//
// Part of the offload project's tests. The programs of tests/e2e compare
// everything a kernel computes with a reference computed on the host, and
// every mismatch prints a line starting with "FAIL" (the first few of each
// array), so that FileCheck's --implicit-check-not=FAIL and the exit status
// both see it.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_TESTS_E2E_EXPECT_H
#define OFFLOAD_TESTS_E2E_EXPECT_H

#include <cstddef>
#include <cstdio>
#include <iterator>

namespace e2e {

/// The number of elements of `got` that differ from `want` (a size mismatch
/// counts as one); prints the first three. Takes containers, C arrays and
/// spans.
template <class C, class D>
std::size_t mismatches(const char *what, const C &got, const D &want) {
  std::size_t n = std::size(got);
  if (n != std::size(want)) {
    std::printf("FAIL: %s has %zu elements, expected %zu\n", what, n,
                std::size(want));
    return 1;
  }
  auto *g = std::data(got);
  auto *w = std::data(want);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (!(g[i] == w[i]) && bad++ < 3)
      std::printf("FAIL: %s[%zu] = %.17g, expected %.17g\n", what, i,
                  double(g[i]), double(w[i]));
  if (bad > 3)
    std::printf("FAIL: %s: %zu of %zu elements differ\n", what, bad, n);
  return bad;
}

/// One scalar; prints it when it differs.
template <class T, class U>
bool expect_eq(const char *what, const T &got, const U &want) {
  if (got == want)
    return true;
  std::printf("FAIL: %s = %.17g, expected %.17g\n", what, double(got),
              double(want));
  return false;
}

} // namespace e2e

#endif // OFFLOAD_TESTS_E2E_EXPECT_H
