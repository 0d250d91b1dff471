//===- saxpy.cpp - end-to-end: saxpy and a template kernel (issue example) --===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp>
#include <span>
#include <vector>
#include <cstdio>
[[offload::kernel]] void saxpy(float a, std::span<const float> x, std::span<float> y) {
  std::size_t i = ofld::global_id();
  if (i < y.size()) y[i] = a * x[i] + y[i];
}
template <class T>
[[offload::kernel]] void scale(T factor, std::span<T> v) {
  std::size_t i = ofld::global_id();
  if (i < v.size()) v[i] *= factor;
}
int main() {
  std::vector<float> x(1 << 20, 1.0f), y(1 << 20, 2.0f);
  offload(saxpy, 2.0f, x, y);
  printf("after saxpy %f %f\n", y[7], y[(1<<20)-1]);
  offload(ofld::launch{.grid = {4096}, .block = {256}}, scale<float>, 0.5f, y);
  printf("%f %f\n", y[7], y[(1<<20)-1]);
  return y[7] == 2.0f ? 0 : 1;
}
