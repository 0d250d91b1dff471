//===- data/StagingPipeline.h - chunked copies, pinned slots ----*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The device-independent half of Staging.cpp, a header so the unit tests
// drive it with a fake copy engine (tests/unit/StagingPipelineTest.cpp).
//
// A copy is cut into pieces. Each of `Workers` threads (the caller and
// `Workers - 1` helpers) owns `Slots` pinned buffers of one piece and one
// in-order device queue, and takes pieces from a shared counter:
//   to device:   memcpy pageable -> free slot, enqueue DMA slot -> device
//   from device: keep `Slots` DMAs device -> slot in flight, memcpy the
//                oldest slot -> pageable as soon as it lands
// so the host-side memcpy of one worker overlaps the DMAs of the others and
// its own (a single memcpy thread reaches about a fifth of the pinned rate).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_RUNTIME_STAGINGPIPELINE_H
#define OFFLOAD_RUNTIME_STAGINGPIPELINE_H

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace ofld::detail::staging {

enum class Direction { ToDevice, FromDevice };

/// What the pipeline needs from a device API. Status 0 means success; any
/// other value is the API's error code (see describe). Calls for queue `Q`
/// come only from the worker that owns it, between enter(Q) and leave(Q);
/// copies enqueued on one queue complete in order.
class CopyEngine {
public:
  virtual ~CopyEngine() = default;
  /// Pinned host memory for all slots, or null.
  virtual void *allocPinned(std::size_t Bytes) = 0;
  virtual void freePinned(void *P) = 0;
  /// Creates `Queues` queues with `Slots` completion markers each.
  virtual int createQueues(unsigned Queues, unsigned Slots) = 0;
  /// Binds the calling thread to the device (and unbinds it again).
  virtual int enter(unsigned) { return 0; }
  virtual void leave(unsigned) {}
  virtual int toDevice(unsigned Q, char *Dev, const char *Pinned,
                       std::size_t N) = 0;
  virtual int fromDevice(unsigned Q, char *Pinned, const char *Dev,
                         std::size_t N) = 0;
  /// Slot `S` of queue `Q` stays busy until the copies enqueued so far end.
  virtual int mark(unsigned Q, unsigned S) = 0;
  /// Waits until slot `S` of queue `Q` is free again.
  virtual int wait(unsigned Q, unsigned S) = 0;
  /// Waits for everything enqueued on `Q`.
  virtual int drain(unsigned Q) = 0;
  virtual const char *describe(int Status) = 0;
};

struct Config {
  unsigned Workers = 6;
  unsigned Slots = 2;
  /// Largest piece; copies of fewer than Workers * 2 such pieces use
  /// smaller ones (down to MinPiece) so every worker has some.
  std::size_t Piece = std::size_t(4) << 20;
  std::size_t MinPiece = std::size_t(256) << 10;
};

struct Result {
  int Status = 0;       ///< first failure, 0 if none
  bool Touched = false; ///< whether the destination may have changed
};

/// Piece size for a copy of `Bytes`: about two pieces per worker, a multiple
/// of 64 KiB (pieces keep the alignment of the host pointer), at most
/// Config::Piece.
inline std::size_t pieceFor(const Config &C, std::size_t Bytes) {
  constexpr std::size_t Align = std::size_t(64) << 10;
  std::size_t Per = Bytes / (std::size_t(C.Workers) * 2);
  Per = (Per + Align - 1) / Align * Align;
  return std::clamp(Per, std::min(C.MinPiece, C.Piece), C.Piece);
}

class Pipeline {
public:
  static constexpr unsigned MaxSlots = 8;

  Pipeline(CopyEngine &E, const Config &C) : Engine(E), Cfg(C) {
    Cfg.Workers = std::max(1u, Cfg.Workers);
    Cfg.Slots = std::clamp(Cfg.Slots, 1u, MaxSlots);
  }
  Pipeline(const Pipeline &) = delete;
  Pipeline &operator=(const Pipeline &) = delete;

  ~Pipeline() {
    Stopping = true;
    Generation.fetch_add(1, std::memory_order_release);
    Generation.notify_all();
    for (std::thread &T : Helpers)
      T.join();
    if (Pinned)
      Engine.freePinned(Pinned);
  }

  /// Pinned slots, queues and helper threads. False (nothing to undo but the
  /// destructor) if any of them cannot be had.
  bool init() {
    std::size_t Bytes = std::size_t(Cfg.Workers) * Cfg.Slots * Cfg.Piece;
    Pinned = static_cast<char *>(Engine.allocPinned(Bytes));
    if (!Pinned || Engine.createQueues(Cfg.Workers, Cfg.Slots))
      return false;
    try {
      for (unsigned W = 1; W < Cfg.Workers; ++W)
        Helpers.emplace_back([this, W] { helperLoop(W); });
    } catch (...) {
      return false;
    }
    return true;
  }

  const Config &config() const { return Cfg; }

  /// Copies `Bytes` between `Host` (pageable) and `Dev` in direction `D`.
  /// One copy at a time; concurrent callers wait their turn (they would
  /// share the same copy engines and memory bandwidth anyway).
  Result copy(Direction D, char *Dev, char *Host, std::size_t Bytes) {
    std::lock_guard<std::mutex> G(CallLock);
    Job J;
    J.Dir = D;
    J.Dev = Dev;
    J.Host = Host;
    J.Bytes = Bytes;
    J.Piece = pieceFor(Cfg, Bytes);
    J.NumPieces = Bytes ? (Bytes - 1) / J.Piece + 1 : 0;
    Current = &J;
    // Every helper acknowledges every job, so none can still be reading
    // `Current` when this call returns.
    Remaining.store(unsigned(Helpers.size()), std::memory_order_relaxed);
    Generation.fetch_add(1, std::memory_order_release);
    Generation.notify_all();
    work(0, J);
    for (unsigned R; (R = Remaining.load(std::memory_order_acquire));)
      Remaining.wait(R, std::memory_order_acquire);
    return {J.Status.load(), J.Touched.load()};
  }

private:
  struct Job {
    Direction Dir;
    char *Dev;
    char *Host;
    std::size_t Bytes, Piece, NumPieces;
    std::atomic<std::size_t> Next{0};
    std::atomic<int> Status{0};
    std::atomic<bool> Touched{false};

    bool failed() const { return Status.load(std::memory_order_relaxed); }
    void fail(int S) {
      int Zero = 0;
      Status.compare_exchange_strong(Zero, S);
    }
    std::size_t offset(std::size_t I) const { return I * Piece; }
    std::size_t size(std::size_t I) const {
      return std::min(Piece, Bytes - I * Piece);
    }
  };

  char *slot(unsigned W, unsigned S) {
    return Pinned + (std::size_t(W) * Cfg.Slots + S) * Cfg.Piece;
  }

  void helperLoop(unsigned W) {
    // No job starts before init() returns: all helpers start at 0.
    std::uint32_t Seen = 0;
    for (;;) {
      Generation.wait(Seen, std::memory_order_acquire);
      std::uint32_t Now = Generation.load(std::memory_order_acquire);
      if (Now == Seen)
        continue; // spurious
      Seen = Now;
      if (Stopping)
        return;
      work(W, *Current);
      if (Remaining.fetch_sub(1, std::memory_order_acq_rel) == 1)
        Remaining.notify_all();
    }
  }

  /// Claims the next piece, or returns false when none is left.
  static bool claim(Job &J, std::size_t &I) {
    if (J.failed())
      return false;
    I = J.Next.fetch_add(1, std::memory_order_relaxed);
    return I < J.NumPieces;
  }

  void work(unsigned W, Job &J) {
    // Workers that find no piece stay off the device entirely.
    if (J.Next.load(std::memory_order_relaxed) >= J.NumPieces || J.failed())
      return;
    if (int S = Engine.enter(W)) {
      J.fail(S);
      return;
    }
    int S = J.Dir == Direction::ToDevice ? workToDevice(W, J)
                                         : workFromDevice(W, J);
    // Always drain: a DMA still reading or writing a slot must end before
    // the slot is reused or the caller's memory is released.
    int Drained = Engine.drain(W);
    Engine.leave(W);
    if (S || Drained)
      J.fail(S ? S : Drained);
  }

  int workToDevice(unsigned W, Job &J) {
    std::size_t I;
    for (std::size_t K = 0; claim(J, I); ++K) {
      unsigned S = unsigned(K % Cfg.Slots);
      if (K >= Cfg.Slots)
        if (int St = Engine.wait(W, S))
          return St;
      std::size_t Off = J.offset(I), N = J.size(I);
      std::memcpy(slot(W, S), J.Host + Off, N);
      if (int St = Engine.toDevice(W, J.Dev + Off, slot(W, S), N))
        return St;
      J.Touched.store(true, std::memory_order_relaxed);
      if (int St = Engine.mark(W, S))
        return St;
    }
    return 0;
  }

  int workFromDevice(unsigned W, Job &J) {
    // A ring of the pieces in flight on this worker's slots, oldest first.
    std::size_t InFlight[MaxSlots];
    unsigned Head = 0, Count = 0;
    bool More = true;
    for (;;) {
      while (More && Count < Cfg.Slots) {
        std::size_t I;
        if (!claim(J, I)) {
          More = false;
          break;
        }
        unsigned S = (Head + Count) % Cfg.Slots;
        if (int St = Engine.fromDevice(W, slot(W, S), J.Dev + J.offset(I),
                                       J.size(I)))
          return St;
        if (int St = Engine.mark(W, S))
          return St;
        InFlight[S] = I;
        ++Count;
      }
      if (!Count)
        return 0;
      if (int St = Engine.wait(W, Head))
        return St;
      if (J.failed())
        return 0; // another worker failed: stop writing the caller's memory
      std::size_t I = InFlight[Head];
      J.Touched.store(true, std::memory_order_relaxed);
      std::memcpy(J.Host + J.offset(I), slot(W, Head), J.size(I));
      Head = (Head + 1) % Cfg.Slots;
      --Count;
    }
  }

  CopyEngine &Engine;
  Config Cfg;
  char *Pinned = nullptr;
  std::vector<std::thread> Helpers;
  std::mutex CallLock;
  Job *Current = nullptr;
  std::atomic<std::uint32_t> Generation{0};
  std::atomic<std::uint32_t> Remaining{0};
  std::atomic<bool> Stopping{false};
};

} // namespace ofld::detail::staging

#endif // OFFLOAD_RUNTIME_STAGINGPIPELINE_H
