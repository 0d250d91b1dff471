//===- launch/Transfers.cpp - ofld::copy and ofld::fill -------------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// cudaMemcpy and cudaMemset for spans (offload/transfer.hpp), in the launch
// part because they are ordered like launches. Each end of a transfer is
// found from its address: a device_buffer's placeholder range (the device
// memory it stands for), a range a region or launch group holds (its
// device copy, data/Residency.cpp), or host memory. A transfer that waits
// (the default, as cudaMemcpy) first waits for the launches issued on the
// device, then copies (data/MapPlan.cpp's copyBytes: staged when large).
// One that does not wait goes on its queue: on a CUDA device whose queue
// has no worker job, onto the queue's stream (cuMemcpyAsync,
// cuMemsetD*Async), between the launches before and after it; elsewhere (the
// host offload target, AMD GPUs, a busy worker) it is a job of the queue's
// worker, which runs it after the jobs and stream work before it. Its
// failure is reported at the next wait, as a launch's.
//
//===----------------------------------------------------------------------===//

#include "launch/QueueState.h"

#include "Runtime.h"

#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <new>
#include <vector>

using namespace ofld::detail;
using namespace ofld::detail::queues;

namespace {

/// Where one end's bytes are.
struct End {
  int64_t Device = -1; ///< libomptarget device; -1: host memory
  void *Ptr = nullptr; ///< the device address there, or the host address
};

/// One ofld::copy or ofld::fill. Trivially destructible: a worker frees it
/// with the value bytes that follow it (Queues.cpp's workerMain).
struct Transfer {
  End Dst, Src; ///< Src: a copy's only
  int64_t Bytes;
  int64_t ValueBytes; ///< a fill's: the bytes of the value after this
  const char *What;
  __ofld_place Place;
  bool isFill() const { return ValueBytes > 0; }
  const void *value() const { return this + 1; }
};

/// What a queue's ring names for transfers on its stream (a failure found
/// at a wait names the operation; the call site is not kept).
const __ofld_site TransferSite = {"ofld::copy or ofld::fill",
                                  "(a transfer that did not wait)", 0, 0, 0};

/// Finds the memory of the `Bytes` at `P` (`Role`: "destination" or
/// "source"); false, having reported it, where only part of it is on a
/// device.
bool locate(const void *P, int64_t Bytes, const char *Role, const char *What,
            const __ofld_place *Place, End &Out) {
  Out = {-1, const_cast<void *>(P)};
  int64_t BufferDevice;
  if (inDeviceBuffer(P, BufferDevice)) {
    void *Dev = residentAddress(BufferDevice, P, Bytes);
    if (!Dev) {
      failAt(Place, What,
             "the %s (%lld bytes) runs past the end of the "
             "device_buffer it starts in",
             Role, (long long)Bytes);
      return false;
    }
    Out = {BufferDevice, Dev};
    return true;
  }
  for (int64_t D = 0; D < numDevices(); ++D) {
    RangeLookup L = lookupRange(D, P, Bytes, /*Writes=*/false);
    if (L.Address) {
      Out = {D, L.Address};
      return true;
    }
    if (L.Partly) {
      failAt(Place, What,
             "only part of the %s (%lld bytes) is on device %lld (a "
             "region holds it): transfer the part it holds and the rest "
             "separately",
             Role, (long long)Bytes, (long long)D);
      return false;
    }
  }
  return true;
}

/// "the host", "device 1", for messages.
const char *where(const End &E, char *Text, std::size_t Size) {
  if (E.Device < 0)
    return "the host";
  std::snprintf(Text, Size, "device %lld", (long long)E.Device);
  return Text;
}

/// Copies or fills now, synchronously; false if the device said no.
bool runNow(const Transfer &T) {
  const End &D = T.Dst, &S = T.Src;
  if (T.isFill()) {
    if (D.Device < 0) {
      for (int64_t Off = 0; Off < T.Bytes; Off += T.ValueBytes)
        std::memcpy(static_cast<char *>(D.Ptr) + Off, T.value(),
                    std::size_t(T.ValueBytes));
      return true;
    }
    // The pattern in host memory, up to 1 MiB of it, copied a piece at a
    // time.
    int64_t Per = std::max<int64_t>(1, (int64_t(1) << 20) / T.ValueBytes);
    int64_t Chunk = std::min(T.Bytes, Per * T.ValueBytes);
    std::vector<char> Pattern(static_cast<std::size_t>(Chunk));
    for (int64_t Off = 0; Off < Chunk; Off += T.ValueBytes)
      std::memcpy(Pattern.data() + Off, T.value(), std::size_t(T.ValueBytes));
    for (int64_t Off = 0; Off < T.Bytes; Off += Chunk)
      if (!copyBytes(true, D.Device, Pattern.data(),
                     static_cast<char *>(D.Ptr) + Off,
                     std::min(Chunk, T.Bytes - Off)))
        return false;
    return true;
  }
  if (D.Device < 0 && S.Device < 0) {
    std::memmove(D.Ptr, S.Ptr, std::size_t(T.Bytes));
    return true;
  }
  if (S.Device < 0)
    return copyBytes(true, D.Device, S.Ptr, D.Ptr, T.Bytes);
  if (D.Device < 0)
    return copyBytes(false, S.Device, D.Ptr, S.Ptr, T.Bytes);
  return !omp_target_memcpy(D.Ptr, S.Ptr, std::size_t(T.Bytes), 0, 0,
                            int(D.Device), int(S.Device));
}

/// runNow, reporting a failure.
void runAndReport(const Transfer &T) {
  if (runNow(T))
    return;
  char A[32], B[32];
  if (T.isFill())
    failAt(&T.Place, T.What, "filling %lld bytes on %s failed",
           (long long)T.Bytes, where(T.Dst, A, sizeof(A)));
  else
    failAt(&T.Place, T.What, "copying %lld bytes from %s to %s failed",
           (long long)T.Bytes, where(T.Src, A, sizeof(A)),
           where(T.Dst, B, sizeof(B)));
}

/// A worker's job (Deferred::Body).
void runJob(void **Context, uint32_t *, int64_t) {
  runAndReport(*reinterpret_cast<const Transfer *>(Context));
}

/// The cuMemsetD*Async that writes `T`'s fill (its value repeated), as the
/// element size and count for it; false where none does (a pattern of
/// more than 4 distinct bytes, or a misaligned destination).
bool memsetShape(const Transfer &T, unsigned &Width, unsigned &Pattern) {
  auto *V = static_cast<const unsigned char *>(T.value());
  auto Repeats = [&](unsigned W) {
    if (T.ValueBytes % W || uintptr_t(T.Dst.Ptr) % W || T.Bytes % W)
      return false;
    for (int64_t I = W; I < T.ValueBytes; ++I)
      if (V[I] != V[I % W])
        return false;
    return true;
  };
  for (unsigned W : {1u, 2u, 4u})
    if (Repeats(W)) {
      Width = W;
      Pattern = 0;
      std::memcpy(&Pattern, V, W);
      return true;
    }
  return false;
}

/// Puts `T` on Q's stream (Q.Lock held, no worker job pending): a CUDA
/// device and ends on it or the host. False where it cannot go there.
bool onStream(Queue &Q, std::unique_lock<std::mutex> &L, const Transfer &T) {
  GpuDevice *G = gpu(Q.Device);
  if (!G)
    return false;
  const Driver &Cu = *G->Cu;
  auto Here = [&](const End &E) { return E.Device == Q.Device; };
  auto HereOrHost = [&](const End &E) { return E.Device < 0 || Here(E); };
  auto Ptr = [](const End &E) {
    return CUdeviceptr(reinterpret_cast<uintptr_t>(E.Ptr));
  };
  unsigned Width = 0, Pattern = 0;
  if (T.isFill()
          ? !Here(T.Dst) || !memsetShape(T, Width, Pattern) ||
                !Cu.MemsetD8Async || !Cu.MemsetD16Async || !Cu.MemsetD32Async
          : !HereOrHost(T.Dst) || !HereOrHost(T.Src) ||
                (T.Dst.Device < 0 && T.Src.Device < 0) || !Cu.MemcpyAsync)
    return false;
  if (!readyStream(Q))
    return false;
  // Keep the ring from overwriting launches that may still fail.
  if (Q.Issued - Q.Synced >= RingSize - 1)
    syncStream(Q, L, "a full queue");
  std::size_t Count = std::size_t(T.Bytes) / (Width ? Width : 1);
  CUresult R =
      !T.isFill() ? Cu.MemcpyAsync(Ptr(T.Dst), Ptr(T.Src), std::size_t(T.Bytes),
                                   Q.Stream)
      : Width == 1 ? Cu.MemsetD8Async(Ptr(T.Dst), (unsigned char)Pattern, Count,
                                      Q.Stream)
      : Width == 2 ? Cu.MemsetD16Async(Ptr(T.Dst), (unsigned short)Pattern,
                                       Count, Q.Stream)
                   : Cu.MemsetD32Async(Ptr(T.Dst), Pattern, Count, Q.Stream);
  if (R) {
    char Message[1024];
    std::snprintf(Message, sizeof(Message),
                  "offload: %s at %s:%u: queueing it on device %lld failed: "
                  "%s",
                  T.What, T.Place.file ? T.Place.file : "unknown", T.Place.line,
                  (long long)Q.Device, Cu.describe(R));
    Q.Errors.push_back(Message);
    return true;
  }
  Q.markUsed();
  uint32_t Seq = ++Q.Issued;
  __atomic_store_n(&Q.Ring[Seq % RingSize], &TransferSite, __ATOMIC_RELAXED);
  return true;
}

/// Runs `T` (whose fill value `Value` points to) in order with the launches
/// on its device: now after them, or with `Nowait` on queue `QueueIndex`.
void issue(Transfer T, const void *Value, int32_t QueueIndex, bool Nowait) {
  int64_t Device = T.Dst.Device >= 0   ? T.Dst.Device
                   : T.Src.Device >= 0 ? T.Src.Device
                                       : dataDevice(-1, &T.Place, T.What);
  // The context a worker frees: the transfer, then the fill's value.
  std::size_t Size = sizeof(Transfer) + std::size_t(T.ValueBytes);
  void *Context = ::operator new(Size, std::align_val_t(16));
  auto *Held = new (Context) Transfer(T);
  if (Value)
    std::memcpy(Held + 1, Value, std::size_t(T.ValueBytes));
  // Kernels run on this CPU, and its launches have finished.
  if (Device < 0) {
    runAndReport(*Held);
    ::operator delete(Context, std::align_val_t(16));
    return;
  }
  // Between two devices it waits for both, `Nowait` or not: one queue
  // cannot order it with the other device's launches.
  bool OtherDevice = T.Src.Device >= 0 && T.Src.Device != Device;
  if (!Nowait || OtherDevice) {
    drainDevice(Device, T.What);
    if (OtherDevice)
      drainDevice(T.Src.Device, T.What);
    runAndReport(*Held);
    ::operator delete(Context, std::align_val_t(16));
    return;
  }
  Queue *Q = queueOf(Device, QueueIndex);
  std::unique_lock<std::mutex> L(Q->Lock);
  if (Q->Jobs.empty() && !Q->Running && onStream(*Q, L, *Held)) {
    L.unlock();
    ::operator delete(Context, std::align_val_t(16));
    return;
  }
  submit(*Q, Job{false, std::nullopt,
                 Deferred{&runJob, Context, nullptr, &TransferSite}});
}

} // namespace

extern "C" void __ofld_copy(void *Dst, const void *Src, int64_t Bytes,
                            int32_t Queue, int32_t Nowait, const char *What,
                            const __ofld_place *Place) {
  if (Bytes <= 0)
    return;
  Transfer T{{}, {}, Bytes, 0, What, Place ? *Place : __ofld_place{}};
  if (!locate(Dst, Bytes, "destination", What, Place, T.Dst) ||
      !locate(Src, Bytes, "source", What, Place, T.Src))
    return;
  issue(T, nullptr, Queue, Nowait != 0);
}

extern "C" void __ofld_fill(void *Dst, int64_t Bytes, const void *Value,
                            int64_t ValueBytes, int32_t Queue, int32_t Nowait,
                            const char *What, const __ofld_place *Place) {
  if (Bytes <= 0 || ValueBytes <= 0)
    return;
  Transfer T{{}, {}, Bytes, ValueBytes, What, Place ? *Place : __ofld_place{}};
  if (!locate(Dst, Bytes, "destination", What, Place, T.Dst))
    return;
  issue(T, Value, Queue, Nowait != 0);
}
