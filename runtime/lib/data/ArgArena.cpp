//===- data/ArgArena.cpp - pinned, always-present memory for small ranges -===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "Libomptarget.h"
#include "data/Data.h"

#include <omp.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>

// libomptarget's pinned host allocation (cuMemAllocHost on CUDA devices,
// the host allocator on a host offload target).

using namespace ofld::detail;

namespace {

/// Chunks per device: enough for this many launches in flight at once
/// (async launches run on worker threads); one bit each in a 32-bit mask.
constexpr int ChunkCount = 32;
constexpr std::size_t ArenaBytes = ChunkCount * ArgChunkBytes;

struct DeviceArena {
  std::once_flag Init;
  char *Base = nullptr;
  char *DeviceBase = nullptr;
  std::atomic<uint32_t> Free{0};

  void create(int Device) {
    if (!environment().SmallArgs)
      return;
    auto *Host =
        static_cast<char *>(llvm_omp_target_alloc_host(ArenaBytes, Device));
    if (!Host)
      return;
    // Mapped once and never released: present for the life of the process,
    // under a name that libomptarget's logs (LIBOMPTARGET_INFO) show.
    mapBare(/*Begin=*/true, Device, Host, int64_t(ArenaBytes),
            ";offload argument arena;ArgArena.cpp;0;0;;");
    if (!omp_target_is_present(Host, Device)) {
      llvm_omp_target_free_host(Host, Device);
      return;
    }
    Base = Host;
    DeviceBase = static_cast<char *>(omp_get_mapped_ptr(Host, Device));
    Free.store(~uint32_t(0), std::memory_order_release);
  }
};

DeviceArena *arenaOf(int Device) {
  static const int Count = numDevices();
  static const std::unique_ptr<DeviceArena[]> Arenas(
      new DeviceArena[std::max(Count, 1)]);
  if (Device < 0 || Device >= Count)
    return nullptr;
  DeviceArena &A = Arenas[Device];
  std::call_once(A.Init, [&] { A.create(Device); });
  return A.Base ? &A : nullptr;
}

} // namespace

ArgChunk ofld::detail::acquireArgChunk(int Device) {
  DeviceArena *A = arenaOf(Device);
  if (!A)
    return {};
  uint32_t Mask = A->Free.load(std::memory_order_relaxed);
  while (Mask) {
    int Index = __builtin_ctz(Mask);
    if (A->Free.compare_exchange_weak(Mask, Mask & ~(uint32_t(1) << Index),
                                      std::memory_order_acquire,
                                      std::memory_order_relaxed))
      return {A->Base + std::size_t(Index) * ArgChunkBytes,
              A->DeviceBase + std::size_t(Index) * ArgChunkBytes, Device,
              Index};
  }
  return {};
}

void ofld::detail::releaseArgChunk(const ArgChunk &Chunk) {
  if (!Chunk)
    return;
  arenaOf(Chunk.Device)
      ->Free.fetch_or(uint32_t(1) << Chunk.Index, std::memory_order_release);
}
