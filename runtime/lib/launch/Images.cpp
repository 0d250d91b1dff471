//===- launch/Images.cpp - the program's kernels, for the streams ---------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// libomptarget loads the program's images itself and offers no way to reach
// them, so the runtime sees each image descriptor as it is registered
// (Interpose.cpp calls registerImages) and keeps its CUDA images and the
// region-id -> kernel-name entries in the registry (QueueState.h);
// Queues.cpp loads each image once per device in the primary context
// libomptarget uses. Device memory is shared; the images have no globals of
// their own (entries of size 0 only; else the stream path stays off).
//
//===----------------------------------------------------------------------===//

#include "launch/QueueState.h"

#include "Environment.h"
#include "Libomptarget.h"
#include "offload/detail/printf_record.hpp"
#include "tools/Tools.h"

#include <cstdio>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

using namespace ofld::detail;
using namespace ofld::detail::queues;

namespace {

/// The inner image of an OffloadBinary (llvm/Object/OffloadBinary.h,
/// version 1) if it is for NVPTX; a bare ELF cubin as it is.
std::pair<const char *, std::size_t> cudaImage(const char *Start,
                                               const char *End) {
  std::size_t Size = std::size_t(End - Start);
  auto Read = [&](std::size_t Off, auto &Out) {
    if (Off + sizeof(Out) > Size)
      return false;
    std::memcpy(&Out, Start + Off, sizeof(Out));
    return true;
  };
  static const unsigned char Magic[4] = {0x10, 0xFF, 0x10, 0xAD};
  if (Size >= 4 && !std::memcmp(Start, Magic, 4)) {
    uint32_t Version;
    uint64_t EntryOffset, StringOffset, NumStrings, ImageOffset, ImageSize;
    if (!Read(4, Version) || Version != 1 || !Read(16, EntryOffset) ||
        !Read(EntryOffset + 8, StringOffset) ||
        !Read(EntryOffset + 16, NumStrings) ||
        !Read(EntryOffset + 24, ImageOffset) ||
        !Read(EntryOffset + 32, ImageSize) || ImageOffset + ImageSize > Size)
      return {nullptr, 0};
    bool Nvptx = false;
    for (uint64_t I = 0; I < NumStrings; ++I) {
      uint64_t Key, Value;
      if (!Read(StringOffset + 16 * I, Key) ||
          !Read(StringOffset + 16 * I + 8, Value) || Key >= Size ||
          Value >= Size)
        return {nullptr, 0};
      if (!std::strncmp(Start + Key, "triple", Size - Key) &&
          !std::strncmp(Start + Value, "nvptx",
                        std::min<std::size_t>(5, Size - Value)))
        Nvptx = true;
    }
    return Nvptx
               ? cudaImage(Start + ImageOffset, Start + ImageOffset + ImageSize)
               : std::pair<const char *, std::size_t>{nullptr, 0};
  }
  // ELF, e_machine EM_CUDA (190).
  uint16_t Machine;
  if (Size >= 20 &&
      !std::memcmp(Start,
                   "\x7f"
                   "ELF",
                   4) &&
      Read(18, Machine) && Machine == 190)
    return {Start, Size};
  return {nullptr, 0};
}

} // namespace

bool ofld::detail::registerImages(const omptarget::BinDesc *Desc) {
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  bool HasPrintf = false;
  for (int32_t I = 0; I < Desc->NumDeviceImages; ++I) {
    const omptarget::DeviceImage &Img = Desc->DeviceImages[I];
    auto Cubin = cudaImage(static_cast<const char *>(Img.ImageStart),
                           static_cast<const char *>(Img.ImageEnd));
    if (Cubin.first)
      R.Cubins.push_back(Cubin);
  }
  for (const omptarget::OffloadEntry *E = Desc->HostEntriesBegin;
       E != Desc->HostEntriesEnd; ++E) {
    // The printf buffer: kernels on the fast path's own copy of the images
    // would write to a copy tools/DevicePrintf.cpp does not read. That happens
    // only with OFFLOAD_BUFFERED_PRINTF (its symbol is the other one), a
    // test mode: the fast path is off then. Otherwise NVIDIA GPUs print
    // with CUDA's vprintf and never touch it.
    if (E->Size && E->SymbolName &&
        registerPrintfBuffer(E->SymbolName, E->Address, E->Size)) {
      HasPrintf = true;
      if (!std::strcmp(E->SymbolName,
                       ofld::detail::printf_record::symbol_all_devices))
        R.Unsupported = true;
      continue;
    }
    if (E->Reserved || E->Version != 1 || E->Size) {
      R.Unsupported = true;
      continue;
    }
    R.Kernels[E->Address] = E->SymbolName;
  }
  if (environment().LaunchDebug)
    std::fprintf(stderr,
                 "offload: launches: %d images registered, %zu CUDA images "
                 "and %zu kernels known%s\n",
                 Desc->NumDeviceImages, R.Cubins.size(), R.Kernels.size(),
                 R.Unsupported ? "; images with data entries: no fast path"
                               : "");
  return HasPrintf;
}
