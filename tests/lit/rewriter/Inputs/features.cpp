// Every parameter form of the transfer table, and calls from the places a
// program launches from: member functions, lambdas, macro arguments, a
// non-dependent call inside a template, and a namespace.
#include <offload/offload.hpp>

#include <array>
#include <cstdio>
#include <span>
#include <vector>

namespace geo {
struct Affine {
  float a, b;
};
} // namespace geo

namespace k {
// By value (a struct), const T&, T(&)[N] and [[offload::out]] T&.
[[offload::kernel]] void affine(geo::Affine f, const float &bias,
                                float (&out)[8], [[offload::out]] int &ran) {
  std::size_t i = ofld::global_id();
  if (i < 8)
    out[i] = f.a * out[i] + f.b + bias;
  if (i == 0)
    ran = 1;
}
} // namespace k

// std::array by reference, const and not; an output span.
[[offload::kernel]] void add(const std::array<int, 4> &a, std::array<int, 4> &b,
                             [[offload::out]] std::span<int> sum) {
  std::size_t i = ofld::global_id();
  if (i < 4) {
    b[i] += 1;
    sum[i] = a[i] + b[i];
  }
}

// Reads a span of a temporary container.
[[offload::kernel]] void sum_all(std::span<const int> in,
                                 [[offload::out]] long &total) {
  if (ofld::global_id() == 0) {
    long s = 0;
    for (int x : in)
      s += x;
    total = s;
  }
}

// A kernel without array parameters runs as one thread; every thread of an
// explicit grid adds the grid's width.
[[offload::kernel]] void count(int &n) {
  __atomic_fetch_add(&n, int(ofld::grid_dim()), __ATOMIC_RELAXED);
}

struct Solver {
  // A static member kernel, declared in the class.
  [[offload::kernel]] static void fill(std::span<double> v, double x) {
    std::size_t i = ofld::global_id();
    if (i < v.size())
      v[i] = x + double(i);
  }

  std::vector<double> data = std::vector<double>(1000);
  double offset = 0.5;

  void run() { offload(fill, data, offset); }
};

int counter = 0;

#define CHECKED(stmt)                                                          \
  do {                                                                         \
    stmt;                                                                      \
  } while (0)
template <class T> void twice() {
  // Does not depend on T: rewritten once, in the template.
  for (int r = 0; r < 2; ++r)
    offload(ofld::launch{.grid = {1}, .block = {1}}, count, counter);
}

int main() {
  float out[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  int ran = 0;
  const float bias = 0.25f;
  offload(k::affine, geo::Affine{2.0f, 1.0f}, bias, out, ran);

  std::array<int, 4> a{1, 2, 3, 4}, b{10, 20, 30, 40};
  std::vector<int> sum(4);
  auto launch = [&] { offload(add, a, b, sum); };
  launch();

  Solver s;
  s.run();

  CHECKED(offload(count, counter)); // 1
  twice<long>();                       // 2
  CHECKED(offload(ofld::launch{.grid = {2}, .block = {1}}, count, counter)); // 4
  if (counter)
    offload(ofld::launch{.grid = {3, 2}}, count, counter); // 6 * 256 * 3
  else
    counter = -1;

  // The temporary vector lives as long as the launch.
  long total = 0;
  offload(sum_all, std::vector<int>{100, 200, 300, 400, 500, 600}, total);

  std::printf("out=%g,%g,%g ran=%d\n", out[0], out[1], out[7], ran);
  std::printf("b=%d,%d sum=%d,%d\n", b[0], b[3], sum[0], sum[3]);
  std::printf("data=%g,%g counter=%d\n", s.data[0], s.data[999], counter);
  std::printf("total=%ld\n", total);
}
