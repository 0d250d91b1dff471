// Prints __FILE__ after a rewritten call (whose block adds lines, so a
// #line directive follows it): the name the original compile gave it.
#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void mark(std::span<int> v) {
  if (ofld::global_id() < v.size())
    v[ofld::global_id()] = 1;
}

int main() {
  std::vector<int> v(4, 0);
  offload(mark, v);
  std::printf("%s:%d: v[3] = %d\n", __FILE__, __LINE__, v[3]);
}
