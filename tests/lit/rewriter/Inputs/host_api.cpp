// The host API and a region, in a program that may be built with -fopenmp
// but no offload target: nothing to offload to, everything runs here.
#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void ones(std::span<int> v) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] = 1;
}

int main() {
  std::printf("devices: %d\n", ofld::device_count());
  std::vector<int> v(10);
  {
    ofld::region resident{std::span<int>(v)};
    // The original builds without the plugin too (no-offload-target.test):
    // the CPU fallback needs the grid.
    offload(ofld::launch{.grid = {1}}, ones, v);
  }
  std::printf("v[9] = %d\n", v[9]);
}
