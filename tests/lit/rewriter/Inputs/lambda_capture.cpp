// A kernel whose lambda captures its span parameters by reference, as CUDA
// ports write small helpers. g++ refuses a by-value std::span referenced in
// a target region ("does not have a mappable type"); the rewriter spells
// such a parameter ofld::bridge::span_param (a const reference for g++);
// one the kernel assigns is renamed and copied into a local span of its
// name, which g++ takes.
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

[[offload::kernel]] void head(std::span<const float> in, std::span<float> out) {
  in = in.first(out.size());
  auto at = [&](std::size_t i) { return in[i] + 1.0f; };
  if (auto i = ofld::global_id(); i < out.size())
    out[i] = at(i);
}

int main() {
  std::vector<float> a(100), b(100);
  for (int i = 0; i < 100; ++i)
    a[i] = float(i);
  offload(twice, a, b);
  std::vector<float> c(10);
  offload(head, a, c);
  std::printf("b[99] = %g, c[9] = %g\n", b[99], c[9]);
  return b[99] == 198.0f && c[9] == 10.0f ? 0 : 1;
}
