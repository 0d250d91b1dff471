//===- scalars_only.cpp - end-to-end: a kernel whose parameters are all scalars ===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//

#include <cstdio>

// Nothing comes back from a kernel with only by-value parameters; the test
// checks (with LIBOMPTARGET_INFO) that it launches with one thread and that
// no data region is opened for it.
[[offload::kernel]] void only_scalars(int n, double x, char c) {
  if (ofld::global_id() == 0 && n == 3 && x == 0.5 && c == 'z')
    ofld::sync_threads();
}

int main() {
  offload(only_scalars, 3, 0.5, 'z');
  std::printf("launched: ok\n");
  return 0;
}
