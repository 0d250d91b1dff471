//===- Libomptarget.h - libomptarget's ABI, as used here --------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// libomptarget installs no header for its entry points or for the structures
// clang's OpenMP code passes it, so the runtime spells out the ones it uses,
// here and nowhere else: when libomptarget changes a layout, this is the one
// place to follow it. The layouts are those of LLVM 22 (omptarget.h,
// llvm/Frontend/Offloading/Utility.h); only the prefix a reader needs is
// declared where the structure is longer.
//
// The bottom of the runtime's include order (runtime/CMakeLists.txt): it
// includes nothing of the runtime.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_RUNTIME_LIBOMPTARGET_H
#define OFFLOAD_RUNTIME_LIBOMPTARGET_H

#include <cstddef>
#include <cstdint>

// libomptarget's entry points (the ABI clang's OpenMP code uses).
extern "C" {
void __tgt_target_data_begin_mapper(void *Loc, int64_t DeviceId, int32_t N,
                                    void **Bases, void **Ptrs, int64_t *Sizes,
                                    int64_t *Types, void **Names,
                                    void **Mappers);
void __tgt_target_data_end_mapper(void *Loc, int64_t DeviceId, int32_t N,
                                  void **Bases, void **Ptrs, int64_t *Sizes,
                                  int64_t *Types, void **Names, void **Mappers);
void __tgt_target_data_update_mapper(void *Loc, int64_t DeviceId, int32_t N,
                                     void **Bases, void **Ptrs, int64_t *Sizes,
                                     int64_t *Types, void **Names,
                                     void **Mappers);
// Reference-counted start and stop of libomptarget.
void __tgt_rtl_init();
void __tgt_rtl_deinit();
// Pinned host memory that libomptarget's plugin for `Device` allocates.
void *llvm_omp_target_alloc_host(std::size_t Size, int Device);
void llvm_omp_target_free_host(void *Ptr, int Device);
}

namespace ofld::detail::omptarget {

/// An offload entry (llvm/Frontend/Offloading/Utility.h, version 1).
struct OffloadEntry {
  uint64_t Reserved;
  uint16_t Version;
  uint16_t Kind;
  uint32_t Flags;
  void *Address;
  char *SymbolName;
  uint64_t Size;
  uint64_t Data;
  void *AuxAddr;
};

/// __tgt_device_image.
struct DeviceImage {
  void *ImageStart, *ImageEnd;
  OffloadEntry *EntriesBegin, *EntriesEnd;
};

/// __tgt_bin_desc: what __tgt_register_lib receives.
struct BinDesc {
  int32_t NumDeviceImages;
  DeviceImage *DeviceImages;
  OffloadEntry *HostEntriesBegin, *HostEntriesEnd;
};

/// The prefix of KernelArgsTy that the runtime reads (versions 2 and 3).
struct KernelArgs {
  uint32_t Version, NumArgs;
  void **ArgBasePtrs, **ArgPtrs;
  int64_t *ArgSizes, *ArgTypes;
  void **ArgNames, **ArgMappers;
  uint64_t Tripcount, Flags;
  uint32_t NumTeams[3], ThreadLimit[3];
};

/// OpenMP's ident_t: its psource is ";file;function;line;column;;".
struct Ident {
  int32_t Reserved1, Flags, Reserved2, Reserved3;
  const char *Source;
};

/// __tgt_target_kernel's type, for the next definition of it (RTLD_NEXT).
using TargetKernelFn = int (*)(void *Loc, int64_t Device, int32_t Teams,
                               int32_t Threads, void *HostPtr,
                               KernelArgs *Args);

} // namespace ofld::detail::omptarget

#endif // OFFLOAD_RUNTIME_LIBOMPTARGET_H
