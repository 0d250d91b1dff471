#include "kernels.h"

#include <cstdio>
#include <vector>

int main() {
  std::vector<float> v(10, 1.0f);
  offload(twice, v);
  std::printf("%g\n", v[0]);
}
