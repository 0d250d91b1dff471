//===- adjacent_objects.cpp - e2e: neighbouring objects by reference ------===//
//
// Part of the offload project's tests. Three objects passed by reference lie
// next to each other (members of one struct): each starts where the one
// before it ends. Each must reach the kernel as itself, not as the end of
// its neighbour: on a GPU the runtime places small ranges in its argument
// arena apart from each other and finds each parameter's copy by the whole
// object (runtime/lib/launch/LaunchSlots.h), so a one-past-the-end match sent
// the writes to the wrong place there (std::pair<int, int>& in
// vocabulary_params, on an H100). Every value is checked.
//
//===----------------------------------------------------------------------===//

#include "expect.h"

#include <cstdio>
#include <span>
#include <utility>
#include <vector>

struct Counter {
  int hits, last;
};

struct Neighbours {
  Counter first;
  Counter second;
  std::pair<int, int> third;
};
static_assert(sizeof(Neighbours) == 24, "three 8-byte objects, no padding");

[[offload::kernel]] void tally(std::span<const int> in, std::span<int> out,
                               Counter &first, Counter &second,
                               std::pair<int, int> &third) {
  std::size_t i = ofld::global_id();
  if (i < in.size())
    out[i] = 2 * in[i] + 1;
  if (i == 0) {
    first = {first.hits + 1, in[0]};
    second = {second.hits + 2, in[in.size() - 1]};
    third = {third.first + int(in.size()), third.second - 1};
  }
}

int main() {
  constexpr int N = 1000;
  std::vector<int> in(N), out(N, -1), ref(N);
  for (int i = 0; i < N; ++i) {
    in[i] = (i * 37) % 101 - 50;
    ref[i] = 2 * in[i] + 1;
  }
  Neighbours n{{10, 0}, {20, 0}, {30, 40}};
  offload(tally, in, out, n.first, n.second, n.third);
  bool ok = e2e::mismatches("out", out, ref) == 0;
  ok &= e2e::expect_eq("first.hits", n.first.hits, 11);
  ok &= e2e::expect_eq("first.last", n.first.last, in[0]);
  ok &= e2e::expect_eq("second.hits", n.second.hits, 22);
  ok &= e2e::expect_eq("second.last", n.second.last, in[N - 1]);
  ok &= e2e::expect_eq("third.first", n.third.first, 30 + N);
  ok &= e2e::expect_eq("third.second", n.third.second, 39);
  std::printf("first = (%d, %d), second = (%d, %d), third = (%d, %d): %s\n",
              n.first.hits, n.first.last, n.second.hits, n.second.last,
              n.third.first, n.third.second, ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
