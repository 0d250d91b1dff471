//===- empty_span.cpp - runtime faults: launches over empty spans ---------===//
//
// Part of the offload project's tests. Under the default shape an empty span
// launches what the kernel's bounds check admits: index 0 of its
// `global_id() == 0` count, nothing of its `i < v.size()`; with an explicit
// shape the grid runs and sees size 0.
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <span>
#include <vector>
[[offload::kernel]] void fill(std::span<float> v, int &calls) {
  if (ofld::global_id() == 0) ++calls;
  std::size_t i = ofld::global_id();
  if (i < v.size()) v[i] = 7;
}
[[offload::kernel]] void outk([[offload::out]] std::span<int> v, int &calls) {
  if (ofld::global_id() == 0) ++calls;
  std::size_t i = ofld::global_id();
  if (i < v.size()) v[i] = 1;
}
int main() {
  // calls counts grids that ran (thread 0 of each); each step says how many
  // it expects by then.
  bool ok = true;
  auto step = [&](const char *what, int calls, int expected) {
    bool good = calls == expected;
    std::printf("%s: calls=%d%s\n", what, calls, good ? "" : " FAIL");
    ok &= good;
  };
  std::vector<float> none;
  int calls = 0;
  offload(fill, none, calls); // default shape: thread 0 alone
  step("default shape, empty span", calls, 1);
  offload(ofld::launch{.grid = {2}, .block = {4}}, fill, none, calls);
  step("explicit shape, empty span", calls, 2); // the grid runs
  std::vector<float> some(3, 0);
  offload(fill, std::span<float>(some).subspan(3), calls);
  step("empty subspan of a vector", calls, 3);
  ok &= some[0] == 0 && some[1] == 0 && some[2] == 0;
  std::vector<int> o;
  offload(outk, o, calls); // default shape: thread 0 alone again
  step("empty out span", calls, 4);
  std::printf("%s\n", ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
