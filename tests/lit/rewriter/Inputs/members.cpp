// Static data members read by a kernel through inline member functions of
// their class: a public one (named for g++'s device copy after the class)
// and a private one (g++ refuses to name it there: left as it was).
#include <cstdio>
#include <span>
#include <vector>

struct Table {
  static constexpr int weights[4] = {1, 2, 3, 4};
  static int weight(std::size_t i) { return weights[i % 4] + bias(); }

private:
  static constexpr int hidden = 10;
  static int bias() { return hidden; }
};

[[offload::kernel]] void weigh(std::span<int> v) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] = Table::weight(i);
}

int main() {
  std::vector<int> v(8, 0);
  offload(weigh, v);
  std::printf("v[0] = %d v[7] = %d\n", v[0], v[7]);
}
