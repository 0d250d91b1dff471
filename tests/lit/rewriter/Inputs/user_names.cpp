// Kernel parameters named as the rewriter's helpers would be without the
// `__ofld_` prefix and suffixes (the grid `g`, the aliases `u`, the launch
// `l`, the extent `e`, a parameter's data `x_d` and scratch copy `x_s`): the
// rewritten call must name its own variables apart from them.
#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void step(std::span<float> u, std::span<const float> g,
                              float l, float e) {
  if (auto i = ofld::global_id(); i < u.size())
    u[i] += l * g[i] + e;
}

[[offload::kernel]] void suffixes(std::span<float> x, std::span<float> x_d,
                                  [[offload::in]] std::span<float> x_s) {
  if (auto i = ofld::global_id(); i < x.size()) {
    x_s[i] *= 2.0f;
    x[i] += x_s[i];
    x_d[i] -= x_s[i];
  }
}

int main() {
  std::vector<float> u(64, 1.0f), g(64, 2.0f), d(64, 0.0f), s(64, 3.0f);
  offload(step, u, g, 0.5f, 1.0f);
  offload(suffixes, u, d, s);
  std::printf("u %g, d %g, s %g\n", u[7], d[7], s[7]);
  return u[7] == 9.0f && d[7] == -6.0f && s[7] == 3.0f ? 0 : 1;
}
