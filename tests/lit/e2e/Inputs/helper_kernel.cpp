// A kernel calling a helper that another file defines for the device: both
// files declare it inside `#pragma omp declare target`.
#include <cstdio>
#include <span>
#include <vector>

#pragma omp declare target
int scaled(int v); // helper_defs.cpp
extern const int bias; // helper_defs.cpp
#pragma omp end declare target

[[offload::kernel]] void apply(std::span<int> v) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] = scaled(v[i]) + bias;
}

int main() {
  std::vector<int> v(300);
  for (int i = 0; i < 300; ++i)
    v[i] = i;
  offload(apply, v);
  int bad = 0;
  for (int i = 0; i < 300; ++i)
    bad += v[i] != 3 * i + 7;
  std::printf("v[299] = %d: %s\n", v[299], bad ? "FAIL" : "ok");
  return bad ? 1 : 0;
}
