// A kernel whose lambda captures its span parameters by reference, as CUDA
// ports write small helpers. g++ refuses a by-value std::span referenced in
// a target region ("does not have a mappable type"); the rewriter spells
// such a parameter ofld::bridge::span_param (a const reference for g++)
// unless the kernel assigns the span itself.
#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void twice(std::span<const float> in, std::span<float> out) {
  auto at = [&](std::size_t i) { return in[i] * 2.0f; };
  auto put = [&](std::size_t i, float v) { out[i] = v; };
  if (auto i = ofld::global_id(); i < out.size())
    put(i, at(i));
}

int main() {
  std::vector<float> a(100), b(100);
  for (int i = 0; i < 100; ++i)
    a[i] = float(i);
  offload(twice, a, b);
  std::printf("b[99] = %g\n", b[99]);
  return b[99] == 198.0f ? 0 : 1;
}
