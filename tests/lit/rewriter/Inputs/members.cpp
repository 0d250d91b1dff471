// Static data members read by a kernel through inline member functions of
// their class: public ones (named for g++'s device copy after the class or
// their definition) and private or protected ones, also in a private nested
// class and a class template (named in a struct after the class and the
// definitions, which each enclosing class befriends: g++ checks access in
// `declare target to(...)`).
#include <cstdio>
#include <span>
#include <vector>

struct Table {
  static constexpr int weights[4] = {1, 2, 3, 4};
  static int weight(std::size_t i) {
    return weights[i % 4] + bias() + Inner::steps[i % 2];
  }

private:
  static constexpr int hidden[2] = {10, 20};
  static int bias() { return hidden[0]; }
  struct Inner { static const int steps[2]; };
};
const int Table::Inner::steps[2] = {100, 200};

template <int N> struct Ring {
  static int at(std::size_t i) { return slots[i % N]; }

protected:
  static constexpr int slots[N] = {1000, 2000};
};

[[offload::kernel]] void weigh(std::span<int> v) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] = Table::weight(i) + Ring<2>::at(i);
}

int main() {
  std::vector<int> v(8, 0);
  offload(weigh, v);
  std::printf("v[0] = %d v[7] = %d\n", v[0], v[7]);
}
