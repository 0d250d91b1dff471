// A kernel that needs the CPU grid's barrier and block-shared arrays.
#include <offload/offload.hpp>
#include <cstdio>
#include <span>
#include <vector>
// Reverses each block of 64 through a block-shared array.
[[offload::kernel]] void reverse_blocks(std::span<int> v) {
  ofld::shared_array<int, 64> tile;
  std::size_t i = ofld::global_id();
  unsigned t = ofld::thread_id();
  tile[t] = v[i];
  ofld::sync_threads();
  v[i] = tile[ofld::block_dim() - 1 - t];
}
int main() {
  std::vector<int> v(256);
  for (int i = 0; i < 256; ++i) v[i] = i;
  offload(ofld::launch{.grid = {4}, .block = {64}}, reverse_blocks, v);
  std::printf("v[0]=%d v[63]=%d v[64]=%d v[255]=%d\n", v[0], v[63], v[64], v[255]);
}
