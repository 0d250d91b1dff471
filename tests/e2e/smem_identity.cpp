//===- smem_identity.cpp - end-to-end: which shared_arrays are distinct ---===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//
//
// Every use site of ofld::shared_array is its own array, also in helper
// functions and per instantiation of a template whose array depends on the
// template parameters or names a local tag; one use site is one array, also
// in a loop. Each block has its own copy: blocks fill their arrays with
// their own id and check them after a barrier.
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <vector>

template <class T> void *dependent() {
  ofld::shared_array<T, 8> a;
  return a.data();
}
template <int K> void *nondependent() {
  ofld::shared_array<float, 8> a;
  return a.data();
}
template <int K> void *named() {
  ofld::shared_array<float, 8, struct named_tag> a;
  return a.data();
}
void *helper_one() {
  ofld::shared_array<float, 8> a;
  return a.data();
}
void *helper_two() {
  ofld::shared_array<float, 8> a;
  return a.data();
}

[[offload::kernel]] void identity([[offload::out]] std::span<int> out,
                                  [[offload::out]] std::span<int> own_block) {
  ofld::shared_array<float, 8> a;
  ofld::shared_array<float, 8> b;
  void *loop[2];
  for (int i = 0; i < 2; ++i) {
    ofld::shared_array<float, 8> c;
    loop[i] = c.data();
  }

  // Per block: every thread writes the block id, then checks all of them.
  ofld::shared_array<unsigned, 64> ids;
  unsigned t = ofld::thread_id(), n = ofld::block_dim();
  for (unsigned i = t; i < ids.size(); i += n)
    ids[i] = ofld::block_id();
  ofld::sync_threads();
  bool mine = true;
  for (unsigned i = 0; i < ids.size(); ++i)
    mine &= ids[i] == ofld::block_id();
  ofld::sync_threads();
  if (!mine)
    ids[0] = ~0u;
  ofld::sync_threads();
  if (t == 0)
    own_block[ofld::block_id()] = ids[0] == ofld::block_id();

  if (ofld::global_id() != 0)
    return;
  out[0] = a.data() != b.data();
  out[1] = helper_one() != helper_two();
  out[2] = dependent<float>() != dependent<int>();
  out[3] = named<1>() != named<2>();
  out[4] = loop[0] == loop[1];
  out[5] = a.data() != helper_one();
  out[6] = static_cast<void *>(ids.data()) != a.data();
#if defined(__clang__)
  // Documented: a use that does not depend on the template parameters is
  // one array for all instantiations (the tag is the same lambda).
  out[7] = nondependent<1>() == nondependent<2>();
#else
  // g++ names arrays by use site and enclosing function instead.
  out[7] = nondependent<1>() != nondependent<2>();
#endif
}

int main() {
  const char *what[] = {"two use sites",        "two helper functions",
                        "dependent instances",  "named-tag instances",
                        "one site in a loop",   "kernel vs helper",
                        "different T and N",    "non-dependent instances"};
  constexpr unsigned Blocks = 50;
  std::vector<int> out(8, -1), own(Blocks, -1);
  offload(ofld::launch{.grid = {Blocks}, .block = {32}}, identity, out, own);
  bool ok = true;
  for (unsigned i = 0; i < out.size(); ++i) {
    std::printf("%s: %s\n", what[i], out[i] == 1 ? "ok" : "FAIL");
    ok &= out[i] == 1;
  }
  unsigned bad = 0;
  for (int o : own)
    bad += o != 1;
  std::printf("blocks with a foreign id in their array: %u\n", bad);
  ok &= bad == 0;
  std::printf("%s\n", ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
