//===- big_by_value.cpp - end-to-end: large structs by value ===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//
//
// A trivially copyable struct of 64 KiB passed by value, far beyond what a
// kernel parameter can hold (CUDA: 32 KiB): it travels through device memory
// and the kernel reads it there (no per-thread copy). A 4 KiB struct that the
// kernel modifies is each thread's own copy, as C++ by-value semantics say:
// no thread sees another's writes, and the host's object stays as it was.
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <span>
#include <vector>

struct Table {
  float weight[16384]; // 64 KiB
};
static_assert(sizeof(Table) == 65536);

struct Scratch {
  int slot[1024]; // 4 KiB
};

[[offload::kernel]] void lookup(Table t, std::span<const int> idx,
                                std::span<float> out) {
  std::size_t i = ofld::global_id();
  if (i < idx.size())
    out[i] = t.weight[idx[i]] + t.weight[16383];
}

[[offload::kernel]] void scribble(Scratch s, std::span<int> out) {
  std::size_t i = ofld::global_id();
  if (i >= out.size())
    return;
  s.slot[i % 1024] += int(i); // this thread's copy only
  int sum = 0;
  for (int k = 0; k < 1024; ++k)
    sum += s.slot[k];
  out[i] = sum;
}

int main() {
  static Table t;
  for (int k = 0; k < 16384; ++k)
    t.weight[k] = float(k) * 0.5f;
  std::vector<int> idx(100000);
  for (std::size_t i = 0; i < idx.size(); ++i)
    idx[i] = int((i * 7919) % 16384);
  std::vector<float> out(idx.size());
  offload(lookup, t, idx, out);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < idx.size(); ++i)
    bad += out[i] != t.weight[idx[i]] + t.weight[16383];

  Scratch s;
  for (int k = 0; k < 1024; ++k)
    s.slot[k] = 1;
  std::vector<int> sums(4096);
  offload(scribble, s, sums);
  for (std::size_t i = 0; i < sums.size(); ++i)
    bad += sums[i] != 1024 + int(i);
  for (int k = 0; k < 1024; ++k)
    bad += s.slot[k] != 1;

  std::printf("64 KiB table and 4 KiB scratch by value: %zu wrong: %s\n", bad,
              bad ? "FAIL" : "ok");
  return bad ? 1 : 0;
}
