//===- consumer.cpp - a program built against an installed offload --------===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//
//
// Includes the installed header explicitly (as a plugin-less build must) and
// uses a kernel, the default and an explicit launch shape, and the host API.
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void square(std::span<const int> in,
                                [[offload::out]] std::span<int> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = in[i] * in[i];
}

int main() {
  std::vector<int> in(1000), out(1000), again(1000);
  for (int i = 0; i < 1000; ++i)
    in[i] = i - 500;
  // The shape is given: OFFLOAD_ARCHS=none builds without the plugin, which
  // alone reads the kernel's bounds check for a launch without one.
  offload(ofld::launch{.grid = {4}, .block = {256}}, square, in, out);
  offload(ofld::launch{.grid = {2}, .block = {500}}, square, in, again);
  bool ok = out[0] == 250000 && out[999] == 499 * 499 && out == again;
  std::printf("consumer: out[0] = %d, out[999] = %d on %d offload device(s): "
              "%s\n",
              out[0], out[999], ofld::device_count(), ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
