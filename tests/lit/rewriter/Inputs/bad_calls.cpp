// Calls the rewriter cannot (or must not) rewrite; each is reported at its
// location and nothing is written.
#include <offload/offload.hpp>

#include <span>
#include <vector>

[[offload::kernel]] void fill(std::span<float> v) {}

void helper(std::span<float> v) {}

[[offload::kernel]] void nested(std::span<float> v) { offload(fill, v); }

#define LAUNCH_FILL(v) offload(fill, v)

template <class T> void generic(std::vector<T> &v) { offload(fill, v); }

int main() {
  std::vector<float> v(4);
  offload(helper, v);
  void (*ptr)(std::span<float>) = fill;
  offload(ptr, v);
  LAUNCH_FILL(v);
  (offload(fill, v), 0);
  offload(fill, v, "extra");
}
