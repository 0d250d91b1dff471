#include "kernels.hpp"

#include <cstdio>
#include <vector>

void fill_iota(std::span<float> v);

int main() {
  std::vector<float> x(1000), y(1000, 1.0f);
  fill_iota(x);
  run_axpy(2.0f, x, y);
  offload(ofld::launch{.grid = {2}, .block = {500}}, axpy, -1.0f, x, y);
  std::printf("y[0]=%g y[999]=%g\n", y[0], y[999]);
}
