#include "shared_tables.h"
#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void first(std::span<float> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = shared_steps[i % 4] + Shared::taps[i % 3] + per_file[i % 2];
}
void run_second(std::vector<float> &);
float second_value(std::size_t);

int main() {
  std::vector<float> a(500, -1.0f), b(500, -1.0f);
  offload(first, a);
  run_second(b);
  int bad = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    bad += a[i] != shared_steps[i % 4] + Shared::taps[i % 3] + per_file[i % 2] ||
           b[i] != second_value(i);
  std::printf("a[499] = %g b[499] = %g: %s\n", a[499], b[499],
              bad ? "FAIL" : "ok");
  return bad ? 1 : 0;
}
