//===- DevicePrintf.cpp - printing what kernels wrote to their buffer -----===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Where device printf is buffered (AMD GPUs; NVIDIA GPUs with
// OFFLOAD_BUFFERED_PRINTF), kernels append records to a declare-target
// buffer in device memory (offload/detail/printf_record.hpp). libomptarget
// maps it by the host copy's address, which the program's offload entries
// give (Streams.cpp's interposed registration hands them here), so
// omp_get_mapped_ptr finds the device's copy.
//
// The buffer is printed, like CUDA's printf FIFO, when kernels have
// finished: every launch through libomptarget (the only way kernels reach
// these devices: the CUDA fast path is off with OFFLOAD_BUFFERED_PRINTF, and
// AMD GPUs have none) holds the device's lock shared while it runs, and the
// last one to finish takes it exclusively and prints the buffer with the
// host's printf, then resets it. So the output of a launch that waits is
// printed when it returns, that of one that does not wait when it finishes
// (at the latest at the next ofld::wait), and no kernel writes while the host
// reads. Records that did not fit are counted on the device and reported in
// one line on stderr.
//
//===----------------------------------------------------------------------===//

#define OFFLOAD_PRINTF_DECODER
#include "offload/detail/printf_record.hpp"

#include "RuntimeInternal.h"

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

struct Buffers {
  std::mutex Lock;
  /// Host addresses of the buffers (one per program or shared library).
  std::vector<void *> Hosts;
  /// Whether NVIDIA GPUs use them too (OFFLOAD_BUFFERED_PRINTF).
  bool AllGpus = false;
};

Buffers &buffers() {
  static Buffers *B = new Buffers; // used by launches until exit
  return *B;
}

struct DeviceState {
  std::once_flag Init;
  bool Active = false;
  std::shared_mutex Running;
};

DeviceState *deviceState(int64_t Device) {
  static DeviceState *States = new DeviceState[std::max(numDevices(), 1)];
  return Device >= 0 && Device < numDevices() ? &States[Device] : nullptr;
}

/// Whether printf on `Device` goes to the buffer.
bool active(int64_t Device, DeviceState &S) {
  std::call_once(S.Init, [&] {
    Buffers &B = buffers();
    bool Any, All;
    {
      std::lock_guard<std::mutex> G(B.Lock);
      Any = !B.Hosts.empty();
      All = B.AllGpus;
    }
    S.Active = Any && !isHostTargetDevice(int(Device)) &&
               (All || cudaOrdinal(int(Device)) < 0);
  });
  return S.Active;
}

/// Prints and resets the buffer at `Host`'s device copy on `Device`. No
/// kernel runs there meanwhile.
void flushOne(int64_t Device, void *Host) {
  auto *Dev = static_cast<char *>(omp_get_mapped_ptr(Host, int(Device)));
  if (!Dev)
    return;
  int Self = omp_get_initial_device();
  record::u64 Counts[2]; // used, lost
  if (omp_target_memcpy(Counts, Dev, sizeof Counts, 0, 0, Self, int(Device)))
    return;
  if (!Counts[0] && !Counts[1])
    return;
  std::size_t Bytes = std::size_t(std::min(Counts[0], record::buffer_bytes));
  std::unique_ptr<record::u8[]> Data(new record::u8[Bytes + 8]);
  std::string Out;
  if (!omp_target_memcpy(Data.get(), Dev + offsetof(record::buffer, data),
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
                 Counts[1], (long long)Device, record::buffer_bytes);
  }
  record::u64 Zero[2] = {0, 0};
  omp_target_memcpy(Dev, Zero, sizeof Zero, 0, 0, int(Device), Self);
}

void flush(int64_t Device) {
  Buffers &B = buffers();
  std::vector<void *> Hosts;
  {
    std::lock_guard<std::mutex> G(B.Lock);
    Hosts = B.Hosts;
  }
  for (void *H : Hosts)
    flushOne(Device, H);
}

} // namespace

bool ofld::detail::registerPrintfBuffer(const char *Symbol, void *Host) {
  bool All = !std::strcmp(Symbol, record::symbol_all_gpus);
  if (!All && std::strcmp(Symbol, record::symbol))
    return false;
  Buffers &B = buffers();
  std::lock_guard<std::mutex> G(B.Lock);
  if (std::find(B.Hosts.begin(), B.Hosts.end(), Host) == B.Hosts.end())
    B.Hosts.push_back(Host);
  B.AllGpus = B.AllGpus || All;
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
  flush(Device);
  S->Running.unlock();
}
