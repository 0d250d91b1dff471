//===- struct_const_ref.cpp - end-to-end: a struct by const& goes to the device only ===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <span>
#include <vector>

struct Affine {
  float scale, shift;
  int repeat;
};

[[offload::kernel]] void apply(const Affine &f, std::span<float> v) {
  std::size_t i = ofld::global_id();
  if (i >= v.size())
    return;
  for (int r = 0; r < f.repeat; ++r)
    v[i] = v[i] * f.scale + f.shift;
}

int main() {
  Affine f{2.0f, 1.0f, 3};
  std::vector<float> v(4096, 1.0f);
  offload(apply, f, v);
  // ((1*2+1)*2+1)*2+1 = 15
  bool ok = v[0] == 15.0f && v[4095] == 15.0f && f.scale == 2.0f;
  std::printf("v[0] = %.1f: %s\n", v[0], ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
