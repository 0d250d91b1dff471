//===- ArgArena.h - pinned, always-present memory for ranges ----*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// A small mapped range (a 1 KB span, a struct, a short array) costs a launch
// more in libomptarget's bookkeeping and in pageable copies than in bytes:
// the mapping is created, its device memory allocated, the bytes copied
// through the driver's own staging buffer and the host thread blocked on
// each copy, then all of it undone. The arena is one block of pinned host
// memory per device whose device copy exists for the life of the process
// (omp_target_associate_ptr). A launch copies each small range into a chunk
// of it and maps the chunk's range instead, with OMP_MAP_ALWAYS: libomptarget
// finds it present, and its copies become DMA from pinned memory queued
// around the kernel on the launch's own stream, with one synchronisation.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_RUNTIME_ARGARENA_H
#define OFFLOAD_RUNTIME_ARGARENA_H

#include <cstddef>

namespace ofld::detail {

/// Largest range (bytes) that goes through the arena.
constexpr std::size_t SmallRangeMaxBytes = std::size_t(16) << 10;

/// What one launch may place in the arena, all its small ranges together:
/// three of the largest, each at its own address modulo 256 (and a fourth
/// never). A multiple of 256, so that every chunk starts 256-aligned.
constexpr std::size_t ArgChunkBytes = 3 * (SmallRangeMaxBytes + 512);

/// A chunk of the arena of one device, held by one launch at a time.
struct ArgChunk {
  char *Base = nullptr;       ///< host address; null: no chunk
  char *DeviceBase = nullptr; ///< the device's copy of it
  int Device = -1;
  int Index = -1;
  explicit operator bool() const { return Base != nullptr; }
};

/// Takes a free chunk of OpenMP device `Device`'s arena, creating the arena
/// on first use. Returns an empty chunk when there is none: the arena is
/// off (OFFLOAD_SMALL_ARGS=0), the device could not provide it, or every
/// chunk is in use by concurrent launches. The caller then maps as usual.
ArgChunk acquireArgChunk(int Device);

/// Gives a chunk back once the launch that took it has finished.
void releaseArgChunk(const ArgChunk &Chunk);

} // namespace ofld::detail

#endif // OFFLOAD_RUNTIME_ARGARENA_H
