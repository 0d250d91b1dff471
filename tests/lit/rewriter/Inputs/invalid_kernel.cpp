// Kernels the transfer table rejects: the rewriter reports the same
// diagnostics as the plugin and writes nothing.
#include <offload/offload.hpp>

#include <span>
#include <vector>

[[offload::kernel]] void raw(float *p, std::span<float> v) {}

[[offload::kernel]] void moved(std::vector<int> &&v) {}

[[offload::kernel]] int returns(std::span<float> v) { return 0; }

template <class T> [[offload::kernel]] void tmpl(T value, std::span<float> v) {}

int main() {
  std::vector<float> v(4);
  offload(raw, v.data(), v);
  offload(tmpl<int *>, nullptr, v);
}
