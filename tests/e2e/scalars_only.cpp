//===- scalars_only.cpp - end-to-end: a kernel whose parameters are all scalars ===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//
//
// Nothing comes back from a kernel with only by-value parameters, so the
// kernel checks what it received itself: every argument (scalars of each
// size, and a small struct) and its launch shape, one thread (grid 1, block
// 1, because it has no span or array parameter). A wrong value stops the
// kernel with a trap, which fails the launch and the program: on a GPU the
// runtime reports the failed launch (offloading is mandatory in the tests),
// on the CPU paths the process dies. That the launch happened at all is
// counted from libomptarget's log (tests/lit/e2e/scalars_only.test, the GPU
// suite).
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstdio>

struct Pair {
  std::int16_t tag;
  double weight;
};

[[offload::kernel]] void only_scalars(int n, double x, char c) {
  if (n != 3 || x != 0.5 || c != 'z')
    __builtin_trap();
  if (ofld::grid_dim(0) * ofld::grid_dim(1) * ofld::grid_dim(2) != 1 ||
      ofld::block_dim(0) * ofld::block_dim(1) * ofld::block_dim(2) != 1)
    __builtin_trap();
}

[[offload::kernel]] void every_size(bool b, std::int8_t i8, std::uint16_t u16,
                                    float f, std::int64_t i64, Pair p,
                                    unsigned long long u64) {
  if (!b || i8 != -7 || u16 != 65000 || f != -1.25f ||
      i64 != -(std::int64_t(1) << 40) - 3 || p.tag != -300 ||
      p.weight != 1e-300 || u64 != ~0ull - 5)
    __builtin_trap();
  if (ofld::grid_dim() != 1 || ofld::block_dim() != 1 || ofld::global_id() != 0)
    __builtin_trap();
}

int main() {
  offload(only_scalars, 3, 0.5, 'z');
  offload(every_size, true, std::int8_t(-7), std::uint16_t(65000), -1.25f,
          -(std::int64_t(1) << 40) - 3, Pair{-300, 1e-300}, ~0ull - 5);
  // Reached only if neither kernel trapped.
  std::printf("arguments and shapes checked on the device: ok\n");
  return 0;
}
