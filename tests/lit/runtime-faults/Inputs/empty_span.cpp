//===- empty_span.cpp - runtime faults: launches over empty spans ---------===//
//
// Part of the offload project's tests. An empty span under the default shape
// launches nothing; with an explicit shape the grid runs and sees size 0.
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
  // calls counts grids that ran (thread 0 of each).
  std::vector<float> none;
  int calls = 0;
  offload(fill, none, calls);                  // default shape: nothing to launch
  std::printf("default shape, empty span: calls=%d\n", calls);
  offload(ofld::launch{.grid = {2}, .block = {4}}, fill, none, calls); // explicit shape runs
  std::printf("explicit shape, empty span: calls=%d\n", calls);
  std::vector<float> some(3, 0);
  offload(fill, std::span<float>(some).subspan(3), calls);
  std::printf("empty subspan of a vector: calls=%d some[2]=%g\n", calls, some[2]);
  std::vector<int> o;
  offload(outk, o, calls);
  std::printf("empty out span: ok\n");
  bool ok = calls == 1 && some[2] == 0;
  std::printf("%s\n", ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
