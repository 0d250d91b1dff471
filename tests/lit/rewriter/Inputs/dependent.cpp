// A launch in a template whose arguments depend on its parameter, and one
// that does not.
#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <vector>

template <class T> [[offload::kernel]] void fill(T value, std::span<T> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = value;
}

// Left as it is, it runs on the CPU fallback, which cannot read the
// kernel's bounds check: it gives its grid.
template <class T> void fill_with_three(std::vector<T> &v) {
  offload(ofld::launch{.grid = {1}}, fill<T>, T(3), v);
}

[[offload::kernel]] void twice(std::span<int> v) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] *= 2;
}

int main() {
  std::vector<int> v(100);
  fill_with_three(v);
  offload(twice, v);
  std::printf("v[0] = %d v[99] = %d\n", v[0], v[99]);
}
