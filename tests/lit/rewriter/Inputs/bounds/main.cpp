// The default launch shape from the kernels' bounds checks: one thread per
// index each check admits, in one, two and three dimensions, with bounds
// that name spans, integers and fields; and a kernel defined in another
// translation unit (elsewhere.cpp), whose bound the rewrite cannot read: its
// launches must give their grid, and one that does not is refused when it
// runs, with the runtime's message.
#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void ones(std::span<int> v) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] += 1;
}

struct Shape {
  int rows, cols;
};

// Row-major: x walks the columns, y the rows.
[[offload::kernel]] void number(std::span<int> m, Shape s) {
  int c = int(ofld::global_id(0)), r = int(ofld::global_id(1));
  if (c >= s.cols || r >= s.rows)
    return;
  m[r * s.cols + c] = 100 * r + c;
}

[[offload::kernel]] void cube(std::span<int> v, int n) {
  std::size_t x = ofld::global_id(0), y = ofld::global_id(1),
              z = ofld::global_id(2);
  if (x < std::size_t(n) && y < std::size_t(n) && z < std::size_t(n))
    v[(z * n + y) * n + x] = 1;
}

// Defined in elsewhere.cpp.
[[offload::kernel]] void elsewhere(std::span<int> v);

static void report(const char *Message) {
  std::printf("handler: %s\n", Message);
}

static long total(const std::vector<int> &v) {
  long T = 0;
  for (int X : v)
    T += X;
  return T;
}

int main(int argc, char **) {
  if (argc > 1)
    ofld::set_error_handler(report);
  std::vector<int> v(1000);
  offload(ones, v);
  // A block of 64 and the grid from the bound.
  offload(ofld::launch{.block = {64}}, ones, v);
  std::printf("ones: %ld\n", total(v));

  std::vector<int> m(30 * 70, -1);
  offload(number, m, Shape{30, 70});
  std::printf("number: %d %d %d\n", m[0], m[69], m[29 * 70 + 69]);

  std::vector<int> c(9 * 9 * 9);
  offload(cube, c, 9);
  std::printf("cube: %ld\n", total(c));

  std::vector<int> e(10);
  offload(ofld::launch{.grid = {1}, .block = {10}}, elsewhere, e);
  std::printf("elsewhere: %ld\n", total(e));
  offload(elsewhere, e);
  std::printf("elsewhere: %ld\n", total(e));
}
