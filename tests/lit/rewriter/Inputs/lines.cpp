// __LINE__ in a kernel, after a launch and after a launch in a macro's
// invocation that spans lines: the original's numbers (the lines say which).
#include <cstdio>
#include <span>
#include <vector>
#define TWICE(stmt)                                                            \
  do {                                                                         \
    stmt;                                                                      \
    stmt;                                                                      \
  } while (0)

[[offload::kernel]] void mark(std::span<int> v) {
  if (ofld::global_id() == 0)
    v[0] = __LINE__; // 14
}

int main() {
  std::vector<int> v(4, 0);
  offload(mark, v);
  std::printf("kernel line %d, host line %d\n", v[0], __LINE__); // 20
  TWICE(offload(mark,
                v));
  std::printf("after the macro: line %d\n", __LINE__); // 23
}
