//===- StagingPipelineTest.cpp - the staging pipeline on a fake device ----===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Drives runtime/lib/data/StagingPipeline.h with a copy engine whose
// "device" is host memory and whose queues run their copies later, on
// threads of their own, after random delays, reading the pinned slot only
// then. A slot reused before its copy ran, a piece copied twice or not at
// all, a write outside the range: each shows up as wrong bytes.
//
//===----------------------------------------------------------------------===//

#include "data/StagingPipeline.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

using namespace ofld::detail::staging;

namespace {

constexpr std::size_t KiB = 1024, MiB = 1024 * KiB;
constexpr int InjectedError = 77, BadCall = 99;

class FakeEngine final : public CopyEngine {
public:
  /// The "device": copies must stay inside [Base, Base + Size).
  FakeEngine(const char *Base, std::size_t Size) : Base(Base), Size(Size) {}

  ~FakeEngine() override {
    for (auto &Q : Queues) {
      {
        std::lock_guard<std::mutex> G(Q->M);
        Q->Stop = true;
      }
      Q->Cv.notify_all();
      Q->Runner.join();
    }
  }

  void *allocPinned(std::size_t Bytes) override {
    if (FailPinned)
      return nullptr;
    PinnedBegin = new char[Bytes];
    PinnedEnd = PinnedBegin + Bytes;
    return PinnedBegin;
  }
  void freePinned(void *P) override { delete[] static_cast<char *>(P); }

  int createQueues(unsigned N, unsigned SlotsPerQueue) override {
    Slots = SlotsPerQueue;
    for (unsigned I = 0; I < N; ++I) {
      Queues.emplace_back(new Queue);
      Queue &Q = *Queues.back();
      Q.Marks.assign(Slots, 0);
      Q.Rng.seed(I + 1);
      Q.Runner = std::thread([&Q] { run(Q); });
    }
    return 0;
  }

  int enter(unsigned Q) override {
    expect(!Entered);
    Entered = true;
    EnteredQueue = Q;
    return 0;
  }
  void leave(unsigned Q) override {
    expect(Entered && EnteredQueue == Q);
    Entered = false;
  }

  int toDevice(unsigned Q, char *Dev, const char *Pinned,
               std::size_t N) override {
    return copy(Q, Dev, Pinned, Pinned, Dev, N);
  }
  int fromDevice(unsigned Q, char *Pinned, const char *Dev,
                 std::size_t N) override {
    return copy(Q, Pinned, Dev, Pinned, Dev, N);
  }
  int mark(unsigned Q, unsigned S) override {
    checkOwner(Q);
    Queue &Qu = *Queues[Q];
    std::lock_guard<std::mutex> G(Qu.M);
    Qu.Marks[S] = Qu.Enqueued;
    return 0;
  }
  int wait(unsigned Q, unsigned S) override {
    checkOwner(Q);
    Queue &Qu = *Queues[Q];
    std::unique_lock<std::mutex> G(Qu.M);
    Qu.Cv.wait(G, [&] { return Qu.Done >= Qu.Marks[S]; });
    return 0;
  }
  int drain(unsigned Q) override {
    checkOwner(Q);
    Queue &Qu = *Queues[Q];
    std::unique_lock<std::mutex> G(Qu.M);
    Qu.Cv.wait(G, [&] { return Qu.Done == Qu.Enqueued; });
    return 0;
  }
  const char *describe(int) override { return "injected"; }

  bool FailPinned = false;
  /// The index (over all queues) of the copy that fails, or -1.
  std::int64_t FailAt = -1;
  std::atomic<std::int64_t> Copies{0};
  std::atomic<int> Violations{0};

private:
  struct Queue {
    std::mutex M;
    std::condition_variable Cv;
    std::deque<std::function<void()>> Ops;
    std::uint64_t Enqueued = 0, Done = 0;
    std::vector<std::uint64_t> Marks;
    bool Stop = false;
    std::minstd_rand Rng;
    std::thread Runner;
  };

  static void run(Queue &Q) {
    std::unique_lock<std::mutex> G(Q.M);
    for (;;) {
      Q.Cv.wait(G, [&] { return Q.Stop || !Q.Ops.empty(); });
      if (Q.Ops.empty())
        return;
      std::function<void()> Op = std::move(Q.Ops.front());
      Q.Ops.pop_front();
      auto Delay = std::chrono::microseconds(Q.Rng() % 40);
      G.unlock();
      // Late, like a DMA engine: the pipeline has moved on by now.
      std::this_thread::sleep_for(Delay);
      Op();
      G.lock();
      ++Q.Done;
      Q.Cv.notify_all();
    }
  }

  void enqueue(unsigned Q, std::function<void()> Op) {
    Queue &Qu = *Queues[Q];
    {
      std::lock_guard<std::mutex> G(Qu.M);
      Qu.Ops.push_back(std::move(Op));
      ++Qu.Enqueued;
    }
    Qu.Cv.notify_all();
  }

  // Called on worker threads, where Catch2's assertions are not safe:
  // violations are counted and checked by the test.
  void expect(bool Ok) {
    if (!Ok)
      ++Violations;
  }
  // Only the worker that entered queue Q uses it.
  void checkOwner(unsigned Q) { expect(Entered && EnteredQueue == Q); }
  void checkPinned(const char *P, std::size_t N) {
    expect(P >= PinnedBegin && P + N <= PinnedEnd);
  }
  void checkDevice(const char *P, std::size_t N) {
    expect(N > 0 && P >= Base && P + N <= Base + Size);
  }
  bool checkCopy(unsigned Q, const char *Pinned, const char *Dev,
                 std::size_t N) {
    int Before = Violations;
    checkOwner(Q);
    checkPinned(Pinned, N);
    checkDevice(Dev, N);
    return Violations == Before;
  }
  /// One checked copy of `N` bytes from `Src` to `Dst`, queued on `Q`; one
  /// of the two is the pinned slot, the other the device range.
  int copy(unsigned Q, char *Dst, const char *Src, const char *Pinned,
           const char *Dev, std::size_t N) {
    if (!checkCopy(Q, Pinned, Dev, N))
      return BadCall;
    if (Copies.fetch_add(1) == FailAt)
      return InjectedError;
    enqueue(Q, [=] { std::memcpy(Dst, Src, N); });
    return 0;
  }

  const char *Base;
  std::size_t Size;
  char *PinnedBegin = nullptr, *PinnedEnd = nullptr;
  unsigned Slots = 0;
  std::vector<std::unique_ptr<Queue>> Queues;
  static thread_local bool Entered;
  static thread_local unsigned EnteredQueue;
};

thread_local bool FakeEngine::Entered = false;
thread_local unsigned FakeEngine::EnteredQueue = 0;

std::vector<char> pattern(std::size_t N, std::uint32_t Seed) {
  std::vector<char> V(N);
  std::minstd_rand R(Seed);
  for (char &C : V)
    C = char(R());
  return V;
}

/// Guard bytes on both sides of every buffer catch writes outside it.
constexpr std::size_t Guard = 4096;
constexpr char GuardByte = char(0xA5);

struct Buffers {
  std::vector<char> Dev, Back;
  explicit Buffers(std::size_t N)
      : Dev(N + 2 * Guard, GuardByte), Back(N + 2 * Guard + 3, GuardByte) {}
  char *dev() { return Dev.data() + Guard; }
  // Deliberately misaligned host destination.
  char *back() { return Back.data() + Guard + 3; }
  bool guardsIntact(std::size_t N) const {
    auto Intact = [](const char *B, const char *E) {
      return std::all_of(B, E, [](char C) { return C == GuardByte; });
    };
    return Intact(Dev.data(), Dev.data() + Guard) &&
           Intact(Dev.data() + Guard + N, Dev.data() + Dev.size()) &&
           Intact(Back.data(), Back.data() + Guard + 3) &&
           Intact(Back.data() + Guard + 3 + N, Back.data() + Back.size());
  }
};

Config smallConfig(unsigned Workers, unsigned Slots, std::size_t Piece) {
  Config C;
  C.Workers = Workers;
  C.Slots = Slots;
  C.Piece = Piece;
  C.MinPiece = 64 * KiB;
  return C;
}

} // namespace

TEST_CASE("staging pieces: about two per worker, 64 KiB multiples, bounded",
          "[staging]") {
  Config C = smallConfig(4, 2, 4 * MiB);
  C.MinPiece = 256 * KiB;
  CHECK(pieceFor(C, 1) == 256 * KiB);
  CHECK(pieceFor(C, 8 * MiB) == 1 * MiB);
  CHECK(pieceFor(C, 8 * MiB + 64) == 1 * MiB + 64 * KiB);
  CHECK(pieceFor(C, 1024 * MiB) == 4 * MiB);
  for (std::size_t Bytes : {std::size_t(1), 3 * MiB + 5, 77 * MiB})
    CHECK(pieceFor(C, Bytes) % (64 * KiB) == 0);
  // A MinPiece above Piece yields to Piece.
  C.MinPiece = 8 * MiB;
  CHECK(pieceFor(C, 1) == 4 * MiB);
}

TEST_CASE("staging round trip: the bytes come back identical", "[staging]") {
  unsigned Workers = GENERATE(1u, 3u, 4u);
  unsigned Slots = GENERATE(1u, 2u, 3u);
  std::size_t Piece = GENERATE(64 * KiB, 192 * KiB);
  for (std::size_t N : {std::size_t(1), std::size_t(4095), 64 * KiB,
                        64 * KiB + 1, 1 * MiB + 3, 3 * MiB + 4097}) {
    CAPTURE(Workers, Slots, Piece, N);
    Buffers B(N);
    std::vector<char> Src = pattern(N + 1, std::uint32_t(N));
    FakeEngine E(B.Dev.data(), B.Dev.size());
    Pipeline P(E, smallConfig(Workers, Slots, Piece));
    REQUIRE(P.init());
    // Misaligned source too.
    Result To = P.copy(Direction::ToDevice, B.dev(), Src.data() + 1, N);
    CHECK(To.Status == 0);
    REQUIRE(std::memcmp(B.dev(), Src.data() + 1, N) == 0);
    Result From = P.copy(Direction::FromDevice, B.dev(), B.back(), N);
    CHECK(From.Status == 0);
    CHECK(From.Touched);
    REQUIRE(std::memcmp(B.back(), Src.data() + 1, N) == 0);
    CHECK(B.guardsIntact(N));
    CHECK(E.Violations == 0);
    CHECK(E.Copies.load() ==
          2 * std::int64_t((N - 1) / pieceFor(P.config(), N) + 1));
  }
}

TEST_CASE("staging: many copies through one pipeline, some concurrent",
          "[staging]") {
  constexpr std::size_t N = 2 * MiB + 12345;
  constexpr int Callers = 4;
  std::vector<char> Dev(Callers * N);
  FakeEngine E(Dev.data(), Dev.size());
  Pipeline P(E, smallConfig(3, 2, 128 * KiB));
  REQUIRE(P.init());
  std::vector<std::vector<char>> Src, Back;
  for (int I = 0; I < Callers; ++I) {
    Src.push_back(pattern(N, 100 + I));
    Back.emplace_back(N, 0);
  }
  std::atomic<int> Bad{0};
  std::vector<std::thread> Threads;
  for (int I = 0; I < Callers; ++I)
    Threads.emplace_back([&, I] {
      for (int Rep = 0; Rep < 3; ++Rep) {
        char *D = Dev.data() + I * N;
        Bad += P.copy(Direction::ToDevice, D, Src[I].data(), N).Status != 0;
        std::fill(Back[I].begin(), Back[I].end(), 0);
        Bad += P.copy(Direction::FromDevice, D, Back[I].data(), N).Status != 0;
        Bad += Back[I] != Src[I];
      }
    });
  for (std::thread &T : Threads)
    T.join();
  CHECK(Bad.load() == 0);
  CHECK(E.Violations == 0);
}

TEST_CASE("staging: nothing to copy touches nothing", "[staging]") {
  std::vector<char> Dev(16);
  FakeEngine E(Dev.data(), Dev.size());
  Pipeline P(E, smallConfig(4, 2, 64 * KiB));
  REQUIRE(P.init());
  Result R = P.copy(Direction::ToDevice, Dev.data(), Dev.data(), 0);
  CHECK(R.Status == 0);
  CHECK_FALSE(R.Touched);
  CHECK(E.Copies.load() == 0);
}

TEST_CASE("staging: a failed copy is reported, and says whether bytes moved",
          "[staging]") {
  constexpr std::size_t N = 1 * MiB;
  Buffers B(N);
  std::vector<char> Src = pattern(N, 7);
  Direction Dir = GENERATE(Direction::ToDevice, Direction::FromDevice);
  char *Host = Dir == Direction::ToDevice ? Src.data() : B.back();
  SECTION("the first copy fails: nothing moved") {
    FakeEngine E(B.Dev.data(), B.Dev.size());
    E.FailAt = 0;
    Pipeline P(E, smallConfig(1, 2, 64 * KiB));
    REQUIRE(P.init());
    Result R = P.copy(Dir, B.dev(), Host, N);
    CHECK(R.Status == InjectedError);
    CHECK_FALSE(R.Touched);
  }
  SECTION("a later copy fails: part moved, the pipeline still works") {
    FakeEngine E(B.Dev.data(), B.Dev.size());
    // 3 workers x 2 slots: the 7th copy starts only after a piece landed.
    E.FailAt = 6;
    Pipeline P(E, smallConfig(3, 2, 64 * KiB));
    REQUIRE(P.init());
    Result R = P.copy(Dir, B.dev(), Host, N);
    CHECK(R.Status == InjectedError);
    CHECK(R.Touched);
    // No more pieces start after the failure.
    CHECK(E.Copies.load() < std::int64_t(N / (64 * KiB)));
    CHECK(P.copy(Direction::ToDevice, B.dev(), Src.data(), N).Status == 0);
    CHECK(P.copy(Direction::FromDevice, B.dev(), B.back(), N).Status == 0);
    CHECK(std::memcmp(B.back(), Src.data(), N) == 0);
    CHECK(B.guardsIntact(N));
    CHECK(E.Violations == 0);
  }
}

TEST_CASE("staging: no pinned memory, no pipeline", "[staging]") {
  std::vector<char> Dev(16);
  FakeEngine E(Dev.data(), Dev.size());
  E.FailPinned = true;
  Pipeline P(E, smallConfig(4, 2, 64 * KiB));
  CHECK_FALSE(P.init());
}
