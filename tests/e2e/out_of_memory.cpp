//===- out_of_memory.cpp - end-to-end: mappings the device cannot hold ----===//
//
// Part of the offload project's tests. Every way offload puts data on a
// device -- a launch, an ofld::region, a launch group, a device_buffer --
// given more than the device can hold gives the named error, never an
// abort inside the OpenMP runtime: with exit status 1, or to the error
// handler, after which the program goes on and the next launch runs.
//
//   out_of_memory [huge|fill] [handler|launch|region|group|buffer]
//
//   huge  (default) 1 TiB: more than any device holds. A span over a small
//         buffer: nothing reads past it, the mapping is refused first.
//   fill  the device is first filled (omp_target_alloc in chunks) until
//         about 128 MiB are free; then 256 MiB are mapped. At the end the
//         filler is freed and the same 256 MiB launch runs (GPU suite).
//   handler (default) every path in turn, to an error handler; the others
//         run that path alone, without a handler. The launch group needs
//         `fill` (a group holds whole containers, and no vector has 1 TiB).
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp>

#include <omp.h>

#include <cstdio>
#include <cstring>
#include <span>
#include <vector>

[[offload::kernel]] void touch(std::span<char> v) {
  if (ofld::global_id() == 0)
    v[0] = 1;
}

// The default shape follows `flag` (one element): one block.
[[offload::kernel]] void mark(std::span<int> flag, std::span<const char> v) {
  if (ofld::global_id() == 0)
    flag[0] = v.empty() ? 2 : 1;
}

namespace {
int Handled = 0;

/// Takes the device's memory in chunks until about 128 MiB are left.
std::vector<void *> fillDevice(int Device) {
  constexpr std::size_t MiB = std::size_t(1) << 20, Small = 4 * MiB;
  std::vector<void *> Filler;
  std::vector<std::size_t> Sizes;
  for (std::size_t Chunk : {1024 * MiB, 64 * MiB, Small})
    while (void *P = omp_target_alloc(Chunk, Device)) {
      Filler.push_back(P);
      Sizes.push_back(Chunk);
    }
  std::size_t Freed = 0;
  while (Freed < 128 * MiB && !Filler.empty()) {
    omp_target_free(Filler.back(), Device);
    Filler.pop_back();
    Freed += Sizes.back();
    Sizes.pop_back();
  }
  // A large chunk may have given back too much: take the excess again.
  for (; Freed >= 128 * MiB + Small; Freed -= Small) {
    void *P = omp_target_alloc(Small, Device);
    if (!P)
      break;
    Filler.push_back(P);
  }
  return Filler;
}

bool wanted(const char *What, const char *Path) {
  return !std::strcmp(What, "handler") || !std::strcmp(What, Path);
}
} // namespace

int main(int argc, char **argv) {
  const bool Fill = argc > 1 && !std::strcmp(argv[1], "fill");
  const char *What = argc > 2 ? argv[2] : "handler";
  if (!std::strcmp(What, "handler"))
    ofld::set_error_handler([](const char *Message) {
      ++Handled;
      std::printf("handled: %s\n", Message);
    });
  const std::size_t Bytes = Fill ? std::size_t(256) << 20 : std::size_t(1)
                                                                << 40;
  std::vector<char> Backing(Fill ? Bytes : 64, 0);
  std::span<char> big(Backing.data(), Bytes);
  const int Device = omp_get_default_device();
  // A first launch: the runtimes have set the device up before it fills.
  std::vector<char> small(64, 0);
  offload(touch, std::span<char>(small));
  std::vector<void *> Filler;
  if (Fill) {
    Filler = fillDevice(Device);
    std::printf("filled the device\n");
  }

  if (wanted(What, "launch")) {
    offload(ofld::launch{.grid = {1}}, touch, big);
    std::printf("launch: went on, big[0] = %d\n", Backing[0]);
  }
  if (wanted(What, "region")) {
    ofld::region r(big);
    offload(ofld::launch{.grid = {1}}, touch, big);
    std::printf("region: went on, big[0] = %d\n", Backing[0]);
  }
  // Launch groups hold whole containers: only with the real 256 MiB.
  if (Fill && wanted(What, "group")) {
    std::vector<int> flag(1, 0);
    offload(mark, flag, Backing);
    offload(mark, flag, Backing);
    std::printf("launch group: went on, flag = %d\n", flag[0]);
  }
  if (wanted(What, "buffer")) {
    ofld::device_buffer<char> buf(Bytes);
    std::printf("device_buffer: went on, size() = %zu\n", buf.size());
  }

  small[0] = 0;
  offload(touch, std::span<char>(small));
  std::printf("the next launch ran: small[0] = %d\n", small[0]);
  if (Fill) {
    for (void *P : Filler)
      omp_target_free(P, Device);
    offload(ofld::launch{.grid = {1}}, touch, big);
    std::printf("with the filler freed, the 256 MiB launch ran: big[0] = %d\n",
                Backing[0]);
  }
  std::printf("%d error(s) handled\n", Handled);
  return 0;
}
