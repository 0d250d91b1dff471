// Kernels that modify a large by-value parameter: each kernel thread
// copies it, which g++'s NVPTX code does on libgomp's stack of 128 KiB per
// warp, where a team's first warp also holds the region's frame (with a
// copy too) and the team's. A copy of 32 KiB fits; one of 60 KiB would
// overflow it, so the rewritten program refuses that launch there with the
// named message (through the handler with argv[1] = "handler", after which
// the program goes on), and runs it everywhere else.
#include <offload/offload.hpp>

#include <cstdio>
#include <cstring>
#include <span>
#include <vector>

template <int KiB> struct Scratch {
  int slot[KiB * 256];
};

template <int KiB>
[[offload::kernel]] void scribble(Scratch<KiB> s, std::span<int> out) {
  std::size_t i = ofld::global_id();
  if (i >= out.size())
    return;
  s.slot[(i * 7919) % (KiB * 256)] += int(i); // this thread's copy only
  int sum = 0;
  for (int k = 0; k < KiB * 256; k += 64)
    sum += s.slot[k];
  out[i] = sum;
}

template <int KiB> Scratch<KiB> &ones() {
  static Scratch<KiB> s;
  for (int &v : s.slot)
    v = 1;
  return s;
}

template <int KiB> void check(const Scratch<KiB> &s, std::span<const int> out) {
  std::size_t wrong = 0, untouched = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    int expect = KiB * 4 + ((i * 7919) % (KiB * 256) % 64 == 0 ? int(i) : 0);
    untouched += out[i] == -1;
    wrong += out[i] != expect;
  }
  for (int v : s.slot)
    wrong += v != 1;
  if (untouched == out.size())
    std::printf("%d KiB: not run\n", KiB);
  else
    std::printf("%d KiB: %zu wrong\n", KiB, wrong);
}

int main(int argc, char **argv) {
  if (argc > 1 && !std::strcmp(argv[1], "handler"))
    ofld::set_error_handler(
        [](const char *message) { std::printf("handled: %s\n", message); });
  std::vector<int> out(2048, -1);
  offload(scribble<32>, ones<32>(), out);
  check(ones<32>(), out);
  out.assign(out.size(), -1);
  offload(scribble<60>, ones<60>(), out);
  check(ones<60>(), out);
  return 0;
}
