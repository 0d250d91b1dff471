// A kernel that reads its thread index under no bounds check: a launch must
// give it a grid. The rewriter refuses the launches that do not, as the
// plugin does (the same check), and writes nothing.
#include <offload/offload.hpp>

#include <span>
#include <vector>

[[offload::kernel]] void unguarded(std::span<int> v) {
  v[ofld::global_id()] = 1;
}

template <class T> [[offload::kernel]] void unguarded_y(std::span<T> v) {
  std::size_t i = ofld::global_id(0);
  if (i < v.size())
    v[i + ofld::global_id(1)] = T(1);
}

template <class T> void launch(std::vector<T> &v) {
  offload(unguarded_y<T>, v);
}

int main() {
  std::vector<int> v(10);
  offload(ofld::launch{.grid = {1}, .block = {10}}, unguarded, v);
  offload(unguarded, v);
  offload(ofld::launch{.block = {64}}, unguarded, v);
  launch(v);
}
