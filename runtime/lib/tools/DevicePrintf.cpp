//===- tools/DevicePrintf.cpp - printing what kernels wrote to a buffer ---===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Where device printf is buffered (AMD GPUs; every device with
// OFFLOAD_BUFFERED_PRINTF), kernels append records to a declare-target
// buffer in device memory (offload/detail/printf_record.hpp). libomptarget
// maps it by the host copy's address, which the program's offload entries
// give (launch/Images.cpp's registration hands them here), so
// omp_get_mapped_ptr finds the device's copy.
//
// The buffer is printed, like CUDA's printf FIFO, when kernels have
// finished. Once an image with a buffer is registered, Interpose.cpp holds a
// PrintfLaunch around every launch through libomptarget (before, launches
// pay nothing for printf): each launch (the only way kernels reach
// these devices: the CUDA fast path is off with OFFLOAD_BUFFERED_PRINTF, and
// the others have none) holds the device's lock shared while it runs, and the
// last one to finish takes it exclusively and prints the buffer with the
// host's printf, then resets it. So the output of a launch that waits is
// printed when it returns, that of one that does not wait when it finishes
// (at the latest at the next ofld::wait), and no kernel writes while the host
// reads. Records that did not fit are counted on the device and reported in
// one line on stderr.
//
// Reading the buffer's counters after every launch would cost a copy from
// the device each time (23 us on an H100 through libomptarget). After the
// first launch on a device (libomptarget has loaded the image then), the
// runtime gives the buffer a word of pinned host memory, which the device
// sets when it appends; later launches only look at that word.
//
//===----------------------------------------------------------------------===//

#define OFFLOAD_PRINTF_DECODER
#include "offload/detail/printf_record.hpp"

#include "tools/Tools.h"

#include "Libomptarget.h"
#include "Runtime.h"

#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

using namespace ofld::detail;
namespace record = ofld::detail::printf_record;

namespace {

/// A buffer of the program's images (one per program or shared library).
struct Entry {
  void *Host;
  record::u64 Bytes; ///< of its data
};

struct Entries {
  std::mutex Lock;
  std::vector<Entry> List;
  /// Whether every device uses them (OFFLOAD_BUFFERED_PRINTF).
  bool AllDevices = false;
};

Entries &entries() {
  static Entries *E = new Entries; // used by launches until exit
  return *E;
}

/// A buffer's copy on one device.
struct Copy {
  Entry E;
  char *Dev = nullptr;
  /// Pinned host memory the device sets (buffer::written); null until the
  /// first flush has set it up.
  volatile record::u64 *Written = nullptr;
};

struct DeviceState {
  std::once_flag Init;
  bool Active = false;
  std::shared_mutex Running;
  /// Guarded by Running, held exclusively.
  std::vector<Copy> Copies;
};

DeviceState *deviceState(int64_t Device) {
  static DeviceState *States = new DeviceState[std::max(numDevices(), 1)];
  return Device >= 0 && Device < numDevices() ? &States[Device] : nullptr;
}

/// Whether printf on `Device` goes to the buffers.
bool active(int64_t Device, DeviceState &S) {
  std::call_once(S.Init, [&] {
    Entries &B = entries();
    bool All;
    {
      std::lock_guard<std::mutex> G(B.Lock);
      for (const Entry &E : B.List)
        S.Copies.push_back({E});
      All = B.AllDevices;
    }
    // AMD GPUs always; every device, the host offload target's included,
    // with OFFLOAD_BUFFERED_PRINTF.
    S.Active = !S.Copies.empty() && (All || (!isHostTargetDevice(int(Device)) &&
                                             cudaOrdinal(int(Device)) < 0));
  });
  return S.Active;
}

/// Prints and resets the buffer `C` on `Device`, if the device wrote to it.
/// No kernel runs there meanwhile.
void flushOne(int64_t Device, Copy &C) {
  int Self = omp_get_initial_device();
  if (!C.Dev) {
    C.Dev = static_cast<char *>(omp_get_mapped_ptr(C.E.Host, int(Device)));
    if (!C.Dev)
      return;
    auto *Word = static_cast<record::u64 *>(
        llvm_omp_target_alloc_host(sizeof(record::u64), int(Device)));
    if (Word) {
      *Word = 0;
      if (omp_target_memcpy(C.Dev + offsetof(record::buffer, written), &Word,
                            sizeof Word, 0, 0, int(Device), Self))
        Word = nullptr; // never set: read the counters after every launch
    }
    C.Written = Word;
  } else if (C.Written) {
    if (!*C.Written)
      return;
    *C.Written = 0;
  }
  record::u64 Counts[2]; // used, lost
  if (omp_target_memcpy(Counts, C.Dev, sizeof Counts, 0, 0, Self, int(Device)))
    return;
  if (!Counts[0] && !Counts[1])
    return;
  std::size_t Bytes = std::size_t(std::min(Counts[0], C.E.Bytes));
  std::unique_ptr<record::u8[]> Data(new record::u8[Bytes + 8]);
  std::string Out;
  if (!omp_target_memcpy(Data.get(), C.Dev + offsetof(record::buffer, data),
                         Bytes, 0, 0, Self, int(Device)))
    for (std::size_t At = 0; At < Bytes;) {
      record::u64 Size = record::decode(Data.get() + At, Bytes - At, Out);
      if (!Size) // the end marker
        break;
      At += Size;
    }
  std::fwrite(Out.data(), 1, Out.size(), stdout);
  if (Counts[1]) {
    std::fflush(stdout);
    std::fprintf(stderr,
                 "offload: %llu printf records lost on device %lld: its "
                 "printf buffer (%llu bytes) filled up before the kernels "
                 "ended (-DOFFLOAD_PRINTF_BUFFER_BYTES=N sets its size)\n",
                 Counts[1], (long long)Device, C.E.Bytes);
  }
  record::u64 Zero[2] = {0, 0};
  omp_target_memcpy(C.Dev, Zero, sizeof Zero, 0, 0, int(Device), Self);
}

} // namespace

bool ofld::detail::registerPrintfBuffer(const char *Symbol, void *Host,
                                        uint64_t Size) {
  bool All = !std::strcmp(Symbol, record::symbol_all_devices);
  if (!All && std::strcmp(Symbol, record::symbol))
    return false;
  constexpr uint64_t Header = offsetof(record::buffer, data);
  if (Size <= Header)
    return true; // not ours to read
  Entries &B = entries();
  std::lock_guard<std::mutex> G(B.Lock);
  if (std::none_of(B.List.begin(), B.List.end(),
                   [&](const Entry &E) { return E.Host == Host; }))
    B.List.push_back({Host, Size - Header});
  B.AllDevices = B.AllDevices || All;
  return true;
}

ofld::detail::PrintfLaunch::PrintfLaunch(int64_t Device) {
  DeviceState *S = deviceState(Device);
  if (S && active(Device, *S)) {
    S->Running.lock_shared();
    State = S;
    this->Device = Device;
  }
}

ofld::detail::PrintfLaunch::~PrintfLaunch() {
  auto *S = static_cast<DeviceState *>(State);
  if (!S)
    return;
  S->Running.unlock_shared();
  // The last launch to finish prints; one still running will.
  if (!S->Running.try_lock())
    return;
  for (Copy &C : S->Copies)
    flushOne(Device, C);
  S->Running.unlock();
}
