//===- offload/detail/cpu_grid.hpp - CPU grid emulation ---------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Not for users. `invoke` calls a kernel with its parameter objects (the
// device entries the plugin generates call it); `cpu_grid` runs a whole grid
// on the calling CPU thread (host offload target, host fallback, builds
// without the plugin).
//
// A block's threads run one after another on the calling stack until one of
// them reaches sync_threads(). That thread keeps the calling stack; the
// threads after it start as fibers on stacks of their own, and the barrier
// passes control round the ring of unfinished threads, so every thread has
// reached the barrier (or returned) before any passes it. Kernels without
// barriers therefore pay no switch at all. A warp function is the same for
// the lanes of one warp: the lane passes control to the next unfinished
// lane of its warp, so that all 32 have left their values in the warp's
// exchange buffer before any reads them. Under OFFLOAD_CHECK=shared the
// scheduler also checks shared-array accesses between these points.
//
// The scheduler below (fibers, stacks, shared-array buffers, per OS thread)
// is written once: builds without OpenMP get it inline; OpenMP builds, whose
// target code forbids thread_local and whose host-offload image is a
// separate shared object, call the copy in libofld_rt (lib/CpuGrid.cpp
// includes this header with OFFLOAD_CPU_GRID_IMPL), or, in the sources
// offload-rewrite writes, which link no offload library, an inline copy
// that omp_bridge.hpp reaches from host code only (OFFLOAD_CPU_GRID_INLINE).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_DETAIL_CPU_GRID_HPP
#define OFFLOAD_DETAIL_CPU_GRID_HPP

#include "offload/device.hpp"
#include "offload/reduction.hpp"

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#if !defined(OFFLOAD_GPU_DEVICE)
#include <cstdio>
#include <cstdlib>
#endif

#if !defined(OFFLOAD_GPU_DEVICE) &&                                            \
    (!defined(_OPENMP) || defined(OFFLOAD_CPU_GRID_IMPL) ||                    \
     defined(OFFLOAD_CPU_GRID_INLINE))
#define OFFLOAD_CPU_SCHEDULER 1
#if defined(OFFLOAD_CPU_GRID_IMPL)
#define OFFLOAD_CPU_RT extern "C"
#else
#define OFFLOAD_CPU_RT extern "C" inline
#endif
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <dlfcn.h>
#include <new>
#include <sys/mman.h>
#include <unistd.h>
#if !defined(__x86_64__) || defined(OFFLOAD_CPU_FIBERS_UCONTEXT)
#include <ucontext.h>
#endif
#endif

// __ofld_cpu_barrier, __ofld_cpu_finish_block and __ofld_cpu_shared are
// declared from the ABI table (offload/abi.hpp): in libofld_rt
// (lib/launch/CpuGrid.cpp), or defined by the scheduler below.
#include "offload/abi.hpp"

#if defined(OFFLOAD_CPU_SCHEDULER)
//===-- The fiber scheduler of the CPU grid ------------------------------===//
namespace __ofld::fiber {

#if defined(__x86_64__) && !defined(OFFLOAD_CPU_FIBERS_UCONTEXT)
// A context switch saves what the SysV ABI makes callee-saved (rbx, rbp,
// r12-r15, the MXCSR and x87 control words) on the old stack and restores it
// from the new one: about twenty instructions, where swapcontext also makes
// a sigprocmask system call (15 times slower on a barrier-heavy kernel). A
// comdat group, so that every translation unit may carry it (x86-64 ELF).
extern "C" void __ofld_fiber_switch(void **SaveSp, void *ToSp);
extern "C" void __ofld_fiber_start();
asm(R"(
  .pushsection .text.__ofld_fiber_switch,"axG",@progbits,__ofld_fiber_switch,comdat
  .weak __ofld_fiber_switch
  .hidden __ofld_fiber_switch
  .type __ofld_fiber_switch,@function
  .p2align 4
__ofld_fiber_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size __ofld_fiber_switch, .-__ofld_fiber_switch
  .weak __ofld_fiber_start
  .hidden __ofld_fiber_start
  .type __ofld_fiber_start,@function
  .p2align 4
__ofld_fiber_start:
  .cfi_startproc
  .cfi_undefined rip
  callq *%r13
  ud2
  .cfi_endproc
  .size __ofld_fiber_start, .-__ofld_fiber_start
  .popsection
)");

struct context {
  void *Sp;
};

/// A context that starts `Entry` on the stack [Stack, Stack + Size): the
/// frame __ofld_fiber_switch pops, returning into __ofld_fiber_start.
inline void make(context &C, char *Stack, std::size_t Size, void (*Entry)()) {
  auto Top =
      reinterpret_cast<std::uintptr_t>(Stack + Size) & ~std::uintptr_t(15);
  auto *Frame = reinterpret_cast<std::uint64_t *>(Top) - 8;
  std::uint32_t Mxcsr;
  std::uint16_t Fcw;
  asm volatile("stmxcsr %0" : "=m"(Mxcsr));
  asm volatile("fnstcw %0" : "=m"(Fcw));
  Frame[0] = Mxcsr | std::uint64_t(Fcw) << 32;
  Frame[1] = Frame[2] = 0;                           // r15, r14
  Frame[3] = reinterpret_cast<std::uint64_t>(Entry); // r13
  Frame[4] = Frame[5] = Frame[6] = 0;                // r12, rbx, rbp
  Frame[7] = reinterpret_cast<std::uint64_t>(&__ofld_fiber_start);
  C.Sp = Frame;
}
inline void swap(context &From, context &To) {
  __ofld_fiber_switch(&From.Sp, To.Sp);
}
#else
// Portable fallback (other architectures): ucontext.
struct context {
  ucontext_t Uc;
};
inline void make(context &C, char *Stack, std::size_t Size, void (*Entry)()) {
  getcontext(&C.Uc);
  C.Uc.uc_stack.ss_sp = Stack;
  C.Uc.uc_stack.ss_size = Size;
  C.Uc.uc_link = nullptr;
  makecontext(&C.Uc, Entry, 0);
}
inline void swap(context &From, context &To) { swapcontext(&From.Uc, &To.Uc); }
#endif

/// One thread of the block being run: slot 0 is the calling stack, the
/// others own a stack that later blocks reuse. Unfinished threads form a
/// ring in thread order.
struct slot {
  context Ctx;
  char *Stack = nullptr; // lowest address, a guard page
  ofld::dim3 Thread;
  std::uint32_t Next = 0, Prev = 0;
  /// Warp exchanges this thread passed: their parity picks the buffer.
  std::uint32_t WarpOps = 0;
};

/// A block-shared array's buffer on this OS thread.
struct shared_buffer {
  const void *Key;
  void *Data;
  std::size_t Bytes;
};

struct checker;

struct scheduler {
  slot *Slots = nullptr;
  std::uint32_t Capacity = 0;
  std::uint32_t Cur = 0;   // the running slot
  std::uint32_t Live = 0;  // fibers that have not returned
  std::uint32_t First = 0; // the block's thread in slot 0
  std::size_t StackBytes = 0;
  shared_buffer *Shared = nullptr;
  std::uint32_t SharedCount = 0, SharedCapacity = 0;
  /// The warp exchange buffers: two of 32 values per warp, used in turn, so
  /// that a lane's next exchange cannot overwrite values that a lane still
  /// resuming from the last one has yet to read.
  std::uint64_t *Exchange = nullptr;
  std::uint32_t ExchangeWarps = 0;
  checker *Check = nullptr; // OFFLOAD_CHECK=shared

  scheduler() {
    // 256 KiB a thread unless OFFLOAD_CPU_STACK_KB says otherwise; only
    // touched pages cost memory.
    std::size_t KiB = 256;
    if (const char *Env = std::getenv("OFFLOAD_CPU_STACK_KB"))
      if (long V = std::strtol(Env, nullptr, 10); V >= 16)
        KiB = std::size_t(V);
    std::size_t Page = std::size_t(sysconf(_SC_PAGESIZE));
    StackBytes = (KiB * 1024 + Page - 1) / Page * Page + Page;
  }
  ~scheduler() {
    for (std::uint32_t I = 0; I < Capacity; ++I)
      if (Slots[I].Stack)
        munmap(Slots[I].Stack, StackBytes);
    std::free(Slots);
    for (std::uint32_t I = 0; I < SharedCount; ++I)
      std::free(Shared[I].Data);
    std::free(Shared);
    std::free(Exchange);
    destroy(Check);
  }
  static void destroy(checker *C);
  scheduler(const scheduler &) = delete;
  scheduler &operator=(const scheduler &) = delete;
};

/// This OS thread's scheduler; the state caches it (TLS lookups in a shared
/// library cost more than a switch).
inline scheduler &current(ofld::detail::cpu_grid_state &G) {
  if (!G.scheduler) {
    static thread_local scheduler S;
    G.scheduler = &S;
  }
  return *static_cast<scheduler *>(G.scheduler);
}

[[noreturn]] inline void fail(const char *What) {
  std::fprintf(stderr, "offload: CPU grid emulation: %s\n", What);
  std::abort();
}

inline std::uint32_t linear(const ofld::dim3 &B, const ofld::dim3 &T) {
  return T.x + B.x * (T.y + B.y * T.z);
}

/// Makes slot `To` run; returns when something switches back.
inline void switch_to(ofld::detail::cpu_grid_state &G, scheduler &S,
                      std::uint32_t To) {
  std::uint32_t From = S.Cur;
  S.Cur = To;
  G.thread_id = S.Slots[To].Thread;
  swap(S.Slots[From].Ctx, S.Slots[To].Ctx);
}

/// Body of every fiber: one kernel thread, then leave the ring for good.
inline void fiber_main() {
  ofld::detail::cpu_grid_state &G = ofld::detail::cpu_grid_ref();
  G.run_thread(G.run_ctx);
  scheduler &S = current(G);
  std::uint32_t Me = S.Cur, Next = S.Slots[Me].Next;
  S.Slots[S.Slots[Me].Prev].Next = Next;
  S.Slots[Next].Prev = S.Slots[Me].Prev;
  --S.Live;
  switch_to(G, S, Next);
  fail("a finished thread was resumed");
}

/// Thread `L` of `N` reached the first barrier of its block on the calling
/// stack, every thread before it has returned: threads L+1..N-1 become
/// fibers, started in turn by the ring.
inline void start_fibers(ofld::detail::cpu_grid_state &G, scheduler &S,
                         std::uint32_t L, std::uint32_t N) {
  std::uint32_t M = N - L;
  if (M > S.Capacity) {
    auto *Grown = static_cast<slot *>(std::realloc(S.Slots, M * sizeof(slot)));
    if (!Grown)
      fail("out of memory for the threads of a block");
    for (std::uint32_t I = S.Capacity; I < M; ++I)
      new (&Grown[I]) slot();
    S.Slots = Grown;
    S.Capacity = M;
  }
  const ofld::dim3 B = G.block;
  for (std::uint32_t I = 0; I < M; ++I) {
    slot &Sl = S.Slots[I];
    Sl.Thread =
        ofld::dim3{(L + I) % B.x, (L + I) / B.x % B.y, (L + I) / B.x / B.y};
    Sl.Next = I + 1 == M ? 0 : I + 1;
    Sl.Prev = I == 0 ? M - 1 : I - 1;
    if (I == 0)
      continue;
    if (!Sl.Stack) {
      void *P =
          mmap(nullptr, S.StackBytes, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
      if (P == MAP_FAILED)
        fail("cannot map a thread stack");
      Sl.Stack = static_cast<char *>(P);
      // Overflowing the stack faults instead of corrupting its neighbour.
      mprotect(Sl.Stack, std::size_t(sysconf(_SC_PAGESIZE)), PROT_NONE);
    }
    // Stagger the stack tops: equal offsets in every stack would put the
    // hot frames of all threads into the same cache sets.
    make(Sl.Ctx, Sl.Stack, S.StackBytes - I % 64 * 64, &fiber_main);
  }
  for (std::uint32_t I = 0; I < M; ++I)
    S.Slots[I].WarpOps = 0;
  S.Cur = 0;
  S.Live = M - 1;
  S.First = L;
  G.fibers = 1;
}

/// The next unfinished lane of the running thread's warp after it, in lane
/// order, wrapping round to the warp's first; the running one if alone.
inline std::uint32_t next_lane(scheduler &S, std::uint32_t Warp) {
  auto WarpOf = [&](std::uint32_t I) { return (S.First + I) / 32; };
  std::uint32_t N = S.Slots[S.Cur].Next;
  if (N > S.Cur && WarpOf(N) == Warp)
    return N;
  std::uint32_t I = S.Cur;
  for (std::uint32_t P = S.Slots[I].Prev; P < I && WarpOf(P) == Warp;
       P = S.Slots[I].Prev)
    I = P;
  return I;
}

//===-- OFFLOAD_CHECK=shared ---------------------------------------------===//
//
// Threads run one at a time between exchange points (barriers, warp
// functions, returns), so the accesses a thread made since its last one
// are settled when another thread's first access, an exchange point or the
// end of the block comes: an element whose bytes changed since the access
// was written, else read. Each element keeps its last writer and two of
// its readers since the last barrier; a read and a write of one element by
// two threads between the same two barriers (or warp exchanges, for lanes
// of one warp) is reported: on a GPU their order is unspecified.

constexpr std::uint32_t NoThread = ~0u;

/// A thread's access, with its barrier and warp-exchange counts then.
struct check_mark {
  std::uint32_t Thread = NoThread, Epoch = 0, WarpOps = 0, Line = 0;
  const char *File = nullptr;
};
struct check_cell {
  check_mark Writer, Readers[2];
};
struct check_array {
  const void *Data;
  std::size_t ElemBytes, Count;
  const char *DeclFile;
  unsigned DeclLine;
  check_cell *Cells;
};
struct check_pending {
  std::uint32_t Array;
  std::size_t Index;
  std::uint64_t Before; // hash of the element's bytes at the access
  const char *File, *Function;
  unsigned Line;
};

struct checker {
  check_array *Arrays = nullptr;
  std::uint32_t ArrayCount = 0, ArrayCapacity = 0;
  check_pending *Pending = nullptr;
  std::uint32_t PendingCount = 0, PendingCapacity = 0;
  std::uint32_t Owner = NoThread; // whose accesses are pending
  /// Per thread of the block: barriers and warp exchanges passed.
  std::uint32_t *Epoch = nullptr, *WarpOps = nullptr;
  std::uint32_t Threads = 0;
  /// The arrays reported (by declaration), and the reports left out.
  const char *ReportedFile[64];
  unsigned ReportedLine[64];
  std::uint32_t ReportCount = 0;
  std::uint64_t LeftOut = 0;
};

inline void scheduler::destroy(checker *C) {
  if (!C)
    return;
  if (C->LeftOut)
    std::fprintf(stderr,
                 "offload: OFFLOAD_CHECK=shared: and %llu more unordered "
                 "accesses to the shared arrays reported\n",
                 (unsigned long long)C->LeftOut);
  for (std::uint32_t I = 0; I < C->ArrayCount; ++I)
    std::free(C->Arrays[I].Cells);
  std::free(C->Arrays);
  std::free(C->Pending);
  std::free(C->Epoch);
  std::free(C->WarpOps);
  delete C;
}

/// Room for `Want` elements of `T` in `P` (capacity `Cap`).
template <class T>
inline void reserve(T *&P, std::uint32_t &Cap, std::uint32_t Want) {
  if (Want <= Cap)
    return;
  std::uint32_t NewCap = Cap ? Cap : 8;
  while (NewCap < Want)
    NewCap *= 2;
  auto *Grown = static_cast<T *>(std::realloc(P, NewCap * sizeof(T)));
  if (!Grown)
    fail("out of memory for OFFLOAD_CHECK=shared");
  P = Grown;
  Cap = NewCap;
}

inline std::uint64_t hash_bytes(const void *P, std::size_t N) {
  std::uint64_t H = 0xcbf29ce484222325ull;
  for (std::size_t I = 0; I < N; ++I)
    H = (H ^ static_cast<const unsigned char *>(P)[I]) * 0x100000001b3ull;
  return H;
}

/// Whether OFFLOAD_CHECK names `shared` (a comma-separated list).
inline bool check_shared_on() {
  static const bool On = [] {
    const char *V = std::getenv("OFFLOAD_CHECK");
    for (const char *P = V; P && *P;) {
      const char *E = std::strchr(P, ',');
      std::size_t Len = E ? std::size_t(E - P) : std::strlen(P);
      if (Len == 6 && std::strncmp(P, "shared", 6) == 0)
        return true;
      P = E ? E + 1 : nullptr;
    }
    return false;
  }();
  return On;
}

/// The variable a `shared_array<...> name` declaration on `Line` of `File`
/// declares, read from the source; false where it cannot be found.
inline bool declared_name(const char *File, unsigned Line, char *Out,
                          std::size_t Size) {
  std::FILE *F = File ? std::fopen(File, "r") : nullptr;
  if (!F)
    return false;
  char Buf[1024];
  bool Found = false;
  for (unsigned L = 1; std::fgets(Buf, sizeof(Buf), F);
       L += !!std::strchr(Buf, '\n'))
    if (L == Line) {
      const char *P = std::strstr(Buf, "shared_array");
      if (!P || !(P = std::strchr(P, '<')))
        break;
      for (int Depth = 0; *P; ++P) {
        Depth += *P == '<' ? 1 : *P == '>' ? -1 : 0;
        if (Depth == 0)
          break;
      }
      if (*P)
        ++P;
      while (*P == ' ' || *P == '\t')
        ++P;
      std::size_t N = 0;
      while (N + 1 < Size && (std::isalnum((unsigned char)P[N]) || P[N] == '_'))
        Out[N] = P[N], ++N;
      Out[N] = 0;
      Found = N > 0;
      break;
    }
  std::fclose(F);
  return Found;
}

/// The kernel's name from the dynamic symbol table, without its
/// parameters; null where the symbol is not exported (a kernel of the main
/// program linked without -rdynamic).
inline const char *kernel_name(const void *Kernel) {
  static thread_local char Name[256];
  Dl_info Info;
  if (!Kernel || !dladdr(Kernel, &Info) || !Info.dli_sname ||
      Info.dli_saddr != Kernel)
    return nullptr;
  int Status = 0;
  char *Plain = abi::__cxa_demangle(Info.dli_sname, nullptr, nullptr, &Status);
  const char *Full = Plain && Status == 0 ? Plain : Info.dli_sname;
  std::size_t Len = std::strcspn(Full, "(");
  Len = Len < sizeof(Name) - 1 ? Len : sizeof(Name) - 1;
  std::memcpy(Name, Full, Len);
  Name[Len] = 0;
  std::free(Plain);
  return Name;
}

inline void print_thread(const ofld::dim3 &B, std::uint32_t L) {
  if (B.y == 1 && B.z == 1)
    std::fprintf(stderr, "thread %u", L);
  else
    std::fprintf(stderr, "thread (%u,%u,%u)", unsigned(L % B.x),
                 unsigned(L / B.x % B.y), unsigned(L / B.x / B.y));
}

/// Reports that `Reader` read (or, `BothWrite`, wrote) what `Writer` wrote:
/// the first time for each array (by declaration), then only counted (one
/// race shows as many pairs of accesses).
inline void report(ofld::detail::cpu_grid_state &G, checker &C,
                   const check_array &A, std::size_t Index,
                   const char *Function, const check_mark &Reader,
                   const check_mark &Writer, bool BothWrite) {
  for (std::uint32_t I = 0; I < C.ReportCount; ++I)
    if (C.ReportedFile[I] == A.DeclFile && C.ReportedLine[I] == A.DeclLine) {
      ++C.LeftOut;
      return;
    }
  if (C.ReportCount == sizeof(C.ReportedLine) / sizeof(C.ReportedLine[0])) {
    ++C.LeftOut;
    return;
  }
  C.ReportedFile[C.ReportCount] = A.DeclFile;
  C.ReportedLine[C.ReportCount++] = A.DeclLine;
  const char *Kernel = kernel_name(G.kernel);
  char Name[128];
  bool Named = declared_name(A.DeclFile, A.DeclLine, Name, sizeof(Name));
  std::fprintf(
      stderr, "offload: OFFLOAD_CHECK=shared: %s '%s', block (%u,%u,%u): ",
      Kernel ? "kernel" : "in", Kernel ? Kernel : Function,
      unsigned(G.block_id.x), unsigned(G.block_id.y), unsigned(G.block_id.z));
  print_thread(G.block, Reader.Thread);
  std::fprintf(stderr, " %s %s[%zu] at %s:%u and ",
               BothWrite ? "writes" : "reads", Named ? Name : "shared_array",
               Index, Reader.File, Reader.Line);
  print_thread(G.block, Writer.Thread);
  std::fprintf(stderr,
               " writes it at %s:%u with no sync_threads()%s between them "
               "(shared_array '%s' declared at %s:%u)\n",
               Writer.File, Writer.Line,
               Reader.Thread / 32 == Writer.Thread / 32 ? " or sync_warp()"
                                                        : "",
               Named ? Name : "?", A.DeclFile, A.DeclLine);
}

/// Whether `Other`'s access and one by thread `Me` now are unordered: the
/// same barrier interval and, for lanes of one warp, the same interval
/// between warp exchanges.
inline bool unordered(const checker &C, const check_mark &Other,
                      std::uint32_t Me) {
  return Other.Thread != NoThread && Other.Thread != Me &&
         Other.Epoch == C.Epoch[Me] &&
         (Other.Thread / 32 != Me / 32 || Other.WarpOps == C.WarpOps[Me]);
}

/// Settles the pending accesses of the thread that made them.
inline void check_flush(ofld::detail::cpu_grid_state &G, checker &C) {
  const std::uint32_t Me = C.Owner;
  for (std::uint32_t I = 0; I < C.PendingCount; ++I) {
    const check_pending &P = C.Pending[I];
    check_array &A = C.Arrays[P.Array];
    check_cell &Cell = A.Cells[P.Index];
    const unsigned char *Elem =
        static_cast<const unsigned char *>(A.Data) + P.Index * A.ElemBytes;
    const check_mark Mine{Me, C.Epoch[Me], C.WarpOps[Me], P.Line, P.File};
    if (hash_bytes(Elem, A.ElemBytes) != P.Before) {
      for (const check_mark &R : Cell.Readers)
        if (unordered(C, R, Me))
          report(G, C, A, P.Index, P.Function, R, Mine, false);
      if (unordered(C, Cell.Writer, Me))
        report(G, C, A, P.Index, P.Function, Mine, Cell.Writer, true);
      Cell.Writer = Mine;
      continue;
    }
    if (unordered(C, Cell.Writer, Me))
      report(G, C, A, P.Index, P.Function, Mine, Cell.Writer, false);
    // Keep two readers of the interval: at least one differs from any
    // later writer.
    for (check_mark &R : Cell.Readers)
      if (R.Thread == NoThread || R.Thread == Me || R.Epoch != C.Epoch[Me] ||
          (R.Thread / 32 == Me / 32 && R.WarpOps != C.WarpOps[Me])) {
        R = Mine;
        break;
      }
  }
  C.PendingCount = 0;
  C.Owner = NoThread;
}

/// A barrier (`Warp` false) or warp exchange of the running thread.
inline void check_sync(ofld::detail::cpu_grid_state &G, scheduler &S,
                       bool Warp) {
  if (!S.Check)
    return; // no access checked yet
  checker &C = *S.Check;
  if (C.PendingCount)
    check_flush(G, C);
  std::uint32_t Me = linear(G.block, G.thread_id);
  if (Me < C.Threads)
    ++(Warp ? C.WarpOps : C.Epoch)[Me];
}

} // namespace __ofld::fiber

/// OFFLOAD_CHECK=shared: records an access to a shared_array element; a
/// null access settles the pending ones and ends the block.
OFFLOAD_CPU_RT void __ofld_cpu_check_access(ofld::detail::cpu_grid_state *G,
                                            const ofld::detail::cpu_access *A) {
  using namespace __ofld::fiber;
  scheduler &S = current(*G);
  if (!S.Check)
    S.Check = new checker;
  checker &C = *S.Check;
  std::uint32_t Me = linear(G->block, G->thread_id);
  if (C.PendingCount && (!A || C.Owner != Me))
    check_flush(*G, C);
  if (!A) {
    for (std::uint32_t I = 0; I < C.ArrayCount; ++I)
      std::free(C.Arrays[I].Cells);
    C.ArrayCount = 0;
    for (std::uint32_t I = 0; I < C.Threads; ++I)
      C.Epoch[I] = C.WarpOps[I] = 0;
    return;
  }
  std::uint32_t N = G->block.x * G->block.y * G->block.z;
  if (N > C.Threads) {
    std::uint32_t Cap = C.Threads, Cap2 = C.Threads;
    reserve(C.Epoch, Cap, N);
    reserve(C.WarpOps, Cap2, N);
    for (std::uint32_t I = C.Threads; I < Cap; ++I)
      C.Epoch[I] = C.WarpOps[I] = 0;
    C.Threads = Cap;
  }
  if (A->index >= A->count)
    return; // out of bounds: not this checker's business
  std::uint32_t Index = 0;
  while (Index < C.ArrayCount && C.Arrays[Index].Data != A->array)
    ++Index;
  if (Index == C.ArrayCount) {
    reserve(C.Arrays, C.ArrayCapacity, C.ArrayCount + 1);
    auto *Cells =
        static_cast<check_cell *>(std::malloc(A->count * sizeof(check_cell)));
    if (!Cells)
      fail("out of memory for OFFLOAD_CHECK=shared");
    for (std::size_t I = 0; I < A->count; ++I)
      new (&Cells[I]) check_cell();
    C.Arrays[C.ArrayCount++] = {A->array,     A->elem_bytes, A->count,
                                A->decl_file, A->decl_line,  Cells};
  }
  reserve(C.Pending, C.PendingCapacity, C.PendingCount + 1);
  C.Owner = Me;
  C.Pending[C.PendingCount++] = {
      Index,
      A->index,
      hash_bytes(static_cast<const unsigned char *>(A->array) +
                     A->index * A->elem_bytes,
                 A->elem_bytes),
      A->file,
      A->function,
      A->line};
}

namespace __ofld::fiber {} // namespace __ofld::fiber

/// sync_threads() of the CPU grid.
OFFLOAD_CPU_RT void __ofld_cpu_barrier(ofld::detail::cpu_grid_state *G) {
  using namespace __ofld::fiber;
  scheduler &S = current(*G);
  if (G->access)
    check_sync(*G, S, false);
  if (!G->fibers) {
    std::uint32_t N = G->block.x * G->block.y * G->block.z;
    std::uint32_t L = linear(G->block, G->thread_id);
    if (L + 1 >= N)
      return; // every other thread of the block has returned
    start_fibers(*G, S, L, N);
  }
  if (S.Slots[S.Cur].Next != S.Cur)
    switch_to(*G, S, S.Slots[S.Cur].Next);
}

/// A warp function of the CPU grid: `Value` into this warp's exchange
/// buffer, then every other unfinished lane of the warp runs up to its
/// exchange (lanes of a warp reach the same ones, as on a GPU) before this
/// one goes on.
OFFLOAD_CPU_RT const std::uint64_t *
__ofld_cpu_warp(ofld::detail::cpu_grid_state *G, std::uint64_t Value) {
  using namespace __ofld::fiber;
  scheduler &S = current(*G);
  if (G->access)
    check_sync(*G, S, true);
  std::uint32_t N = G->block.x * G->block.y * G->block.z;
  std::uint32_t L = linear(G->block, G->thread_id);
  std::uint32_t Warps = (N + 31) / 32;
  if (Warps > S.ExchangeWarps) {
    // Only at a block's first exchange: no lane holds a buffer then.
    std::free(S.Exchange);
    S.Exchange = static_cast<std::uint64_t *>(
        std::calloc(std::size_t(Warps) * 64, sizeof(std::uint64_t)));
    if (!S.Exchange)
      fail("out of memory for warp exchanges");
    S.ExchangeWarps = Warps;
  }
  if (!G->fibers && L + 1 < N)
    start_fibers(*G, S, L, N);
  std::uint32_t Parity = G->fibers ? S.Slots[S.Cur].WarpOps++ & 1 : 0;
  std::uint64_t *Buffer = S.Exchange + (std::size_t(L / 32) * 2 + Parity) * 32;
  Buffer[L % 32] = Value;
  if (G->fibers)
    if (std::uint32_t Next = next_lane(S, L / 32); Next != S.Cur)
      switch_to(*G, S, Next);
  return Buffer;
}

/// The calling stack's thread returned while others of its block are
/// fibers: it counts as arrived at every barrier until they have returned.
OFFLOAD_CPU_RT void __ofld_cpu_finish_block(ofld::detail::cpu_grid_state *G) {
  using namespace __ofld::fiber;
  scheduler &S = current(*G);
  while (S.Live)
    switch_to(*G, S, S.Slots[0].Next);
  G->fibers = 0;
}

/// The buffer of the shared_array named `Key` on this OS thread. Fresh
/// buffers hold 0xff bytes: a kernel must not expect zeros, the GPU has
/// none to give.
OFFLOAD_CPU_RT void *__ofld_cpu_shared(ofld::detail::cpu_grid_state *G,
                                       const void *Key, std::size_t Bytes,
                                       std::size_t Align) {
  using namespace __ofld::fiber;
  scheduler &S = current(*G);
  shared_buffer *B = nullptr;
  for (std::uint32_t I = 0; I < S.SharedCount && !B; ++I)
    if (S.Shared[I].Key == Key)
      B = &S.Shared[I];
  if (check_shared_on())
    G->access = &__ofld_cpu_check_access;
  if (B && B->Bytes >= Bytes)
    return B->Data;
  if (!B) {
    if (S.SharedCount == S.SharedCapacity) {
      std::uint32_t Cap = S.SharedCapacity ? 2 * S.SharedCapacity : 8;
      auto *Grown = static_cast<shared_buffer *>(
          std::realloc(S.Shared, Cap * sizeof(shared_buffer)));
      if (!Grown)
        fail("out of memory for shared arrays");
      S.Shared = Grown;
      S.SharedCapacity = Cap;
    }
    B = &S.Shared[S.SharedCount++];
    *B = shared_buffer{Key, nullptr, 0};
  }
  std::free(B->Data);
  Align = Align < 64 ? 64 : Align;
  std::size_t Rounded = (Bytes + Align - 1) / Align * Align;
  B->Data = std::aligned_alloc(Align, Rounded);
  if (!B->Data)
    fail("out of memory for a shared array");
  std::memset(B->Data, 0xff, Rounded);
  B->Bytes = Bytes;
  return B->Data;
}
#endif // OFFLOAD_CPU_SCHEDULER

namespace __ofld {

// (Guarded: g++ -Wall warns about OpenMP pragmas without -fopenmp.) Device
// code of the plugin's entries; in rewritten sources, which run their own
// grids (omp_bridge.hpp), only the CPU fallback of calls left as they were
// uses these, from host code: device code there could not reach the
// scheduler, whose state is thread_local.
#if defined(_OPENMP) && !defined(OFFLOAD_CPU_GRID_INLINE)
#pragma omp declare target
#endif
/// The argument for a kernel parameter of type `P` from the object at `obj`.
/// A small trivially copyable class passed by value is copied as the bytes
/// it is (the launch moved it as bytes, too), not through overload
/// resolution among its constructors: for std::span that resolution
/// normalises the constraints of every std::span constructor, once per
/// element type, which was a fifth of the front end's time for a
/// translation unit of kernels. Anything else is the object itself (an
/// lvalue), which the call copies into its parameter: a large class returned
/// by value would be one first-class aggregate on GPUs, split into a load
/// and a store per element (a 64 KiB struct took minutes to compile).
template <class P> decltype(auto) param_at(void *obj) {
  using T = std::remove_reference_t<P>;
  if constexpr (!std::is_reference_v<P> && std::is_class_v<P> &&
                std::is_trivially_copyable_v<P> && sizeof(P) <= 64)
    return __builtin_bit_cast(P, *static_cast<const T *>(obj));
  else
    return *static_cast<T *>(obj);
}
template <class... P, std::size_t... I>
void invoke_with(void (*kernel)(P...), void **objs, std::index_sequence<I...>) {
  kernel(param_at<P>(objs[I])...);
}
/// Calls a kernel with the parameter objects at `objs`. The plugin
/// instantiates one per kernel signature (host and device compile) so that
/// clang, not the plugin, knows each target's calling convention.
template <class... P> void invoke(void (*kernel)(P...), void **objs) {
#if defined(OFFLOAD_GPU_DEVICE)
  if constexpr (reduce::any<P...>) {
    reduce::invoke_reducing(kernel, objs, std::index_sequence_for<P...>{});
    return;
  }
#endif
  invoke_with(kernel, objs, std::index_sequence_for<P...>{});
}

/// The argument for kernel parameter `I` of type `P` of a kernel with
/// reductions: a reduction's per-thread accumulator, else the object.
template <std::size_t I, class P, class H>
decltype(auto) reducing_arg(H &holders, void *obj) {
  if constexpr (reduce::param<P>::value)
    return static_cast<typename reduce::param<P>::type &>(
        static_cast<reduce::holder<I, P> &>(holders).Acc);
  else
    return param_at<P>(obj);
}

#if defined(OFFLOAD_GPU_DEVICE)
/// A GPU thread of a kernel with reductions: the body with accumulators,
/// then each reduction's combination (reduction.hpp), in parameter order.
template <class... P, std::size_t... I>
void reduce::invoke_reducing(void (*kernel)(P...), void **objs,
                             std::index_sequence<I...>) {
  holders<std::index_sequence<I...>, P...> H(objs);
  kernel(reducing_arg<I, P>(H, objs[I])...);
  constexpr bool Single = (int(param<P>::value) + ...) == 1;
  auto Finish = [&]<std::size_t J, class Q>(void *Obj) {
    if constexpr (param<Q>::value) {
      auto &R = static_cast<holder<J, Q> &>(H);
      using Tr = ofld::detail::reduce_traits<holder<J, Q>::op,
                                             typename holder<J, Q>::value_type>;
      gpu_finish<Tr, Single>(R.value(), *static_cast<const gpu_slot *>(Obj));
    }
  };
  (Finish.template operator()<I, P>(objs[I]), ...);
}
#endif

#if !defined(OFFLOAD_GPU_DEVICE)
/// One kernel's threads for the grid loop below: `thread()` runs the
/// current thread, `block_done(b)` follows the last thread of block `b`.
template <class... P> struct plain_threads {
  void (*kernel)(P...);
  void **objs;
  void thread() { invoke(kernel, objs); }
  void block_done(std::uint64_t) {}
};

/// The same for a kernel with reductions: each thread's accumulators go to
/// `Values` (one per thread of the block), each block's tree result is
/// folded into `Folds[block % B]`, in block order, and the tree over the
/// folds is the grid's result: the GPU's order of combination
/// (reduction.hpp), with 32-lane warps.
template <class... P> struct reducing_threads {
  // (No static data member: in declare target code it would become a
  // device global without a device definition.)
  void (*kernel)(P...);
  void **objs;
  std::uint32_t B = 1;
  void *Values[sizeof...(P)] = {};
  void *Folds[sizeof...(P)] = {};

  template <std::size_t... I>
  void start(std::uint32_t Threads, std::index_sequence<I...>) {
    B = Threads;
    auto Alloc = [&]<std::size_t J, class Q>() {
      if constexpr (reduce::param<Q>::value) {
        using T = typename reduce::holder<J, Q>::value_type;
        Values[J] = std::malloc(sizeof(T) * B);
        Folds[J] = std::malloc(sizeof(T) * B);
        if (!Values[J] || !Folds[J]) {
          std::printf("offload: CPU grid emulation: out of memory for a "
                      "reduction\n");
          std::abort();
        }
      }
    };
    (Alloc.template operator()<I, P>(), ...);
  }
  template <std::size_t... I> void run(std::index_sequence<I...>) {
    reduce::holders<std::index_sequence<I...>, P...> H(objs);
    kernel(reducing_arg<I, P>(H, objs[I])...);
    const ofld::detail::cpu_grid_state &G = ofld::detail::cpu_grid_ref();
    std::uint32_t L =
        G.thread_id.x + G.block.x * (G.thread_id.y + G.block.y * G.thread_id.z);
    auto Store = [&]<std::size_t J, class Q>() {
      if constexpr (reduce::param<Q>::value) {
        using T = typename reduce::holder<J, Q>::value_type;
        static_cast<T *>(Values[J])[L] =
            static_cast<reduce::holder<J, Q> &>(H).value();
      }
    };
    (Store.template operator()<I, P>(), ...);
  }
  void thread() { run(std::index_sequence_for<P...>{}); }

  template <std::size_t... I>
  void block_done(std::uint64_t Block, std::index_sequence<I...>) {
    auto Fold = [&]<std::size_t J, class Q>() {
      if constexpr (reduce::param<Q>::value) {
        using T = typename reduce::holder<J, Q>::value_type;
        using Tr = ofld::detail::reduce_traits<reduce::holder<J, Q>::op, T>;
        reduce::cpu_fold_block<Tr>(
            static_cast<T *>(Folds[J]), B, Block,
            reduce::cpu_block_tree<Tr>(static_cast<T *>(Values[J]), B));
      }
    };
    (Fold.template operator()<I, P>(), ...);
  }
  void block_done(std::uint64_t Block) {
    block_done(Block, std::index_sequence_for<P...>{});
  }

  /// The grid's result into each variable; `Blocks` > 0.
  template <std::size_t... I>
  void finish(std::uint64_t Blocks, std::index_sequence<I...>) {
    if (!Blocks)
      return;
    auto Finish = [&]<std::size_t J, class Q>() {
      if constexpr (reduce::param<Q>::value) {
        using T = typename reduce::holder<J, Q>::value_type;
        using Tr = ofld::detail::reduce_traits<reduce::holder<J, Q>::op, T>;
        T G =
            reduce::cpu_grid_result<Tr>(static_cast<T *>(Folds[J]), B, Blocks);
        T &Target = *static_cast<T *>(objs[J]);
        Target = Tr::apply(Target, G);
      }
    };
    (Finish.template operator()<I, P>(), ...);
  }
  ~reducing_threads() {
    for (std::size_t I = 0; I < sizeof...(P); ++I) {
      std::free(Values[I]);
      std::free(Folds[I]);
    }
  }
};

/// Runs every (block, thread) pair of a grid on the calling CPU thread.
/// Threads run in x-major order, blocks too; see the top of this file for
/// barriers.
template <class Threads>
void cpu_grid_loop(const std::uint32_t *dims, Threads &Job) {
  using ofld::dim3;
  auto &g = ofld::detail::cpu_grid_ref();
  const ofld::detail::cpu_grid_state saved = g;
  g.grid = dim3{dims[0], dims[1], dims[2]};
  g.block = dim3{dims[3], dims[4], dims[5]};
  g.barrier = &__ofld_cpu_barrier;
  g.shared = &__ofld_cpu_shared;
  g.warp = &__ofld_cpu_warp;
  g.access = nullptr;
  g.kernel = reinterpret_cast<const void *>(Job.kernel);
  g.run_thread = [](void *J) { static_cast<Threads *>(J)->thread(); };
  g.run_ctx = &Job;
  g.fibers = 0;
  // The launch's dynamic shared memory: one buffer for its blocks, as for a
  // shared_array, named by this thread's state (no array's key is).
  g.dyn_shared_bytes = dims[__ofld_shared_bytes_dim];
  g.dyn_shared = g.dyn_shared_bytes
                     ? __ofld_cpu_shared(&g, &g, g.dyn_shared_bytes, 16)
                     : nullptr;
  const dim3 b = g.block;
  const std::uint64_t threads = std::uint64_t(b.x) * b.y * b.z;
  std::uint64_t linear = 0;
  for (std::uint32_t bz = 0; bz < g.grid.z; ++bz)
    for (std::uint32_t by = 0; by < g.grid.y; ++by)
      for (std::uint32_t bx = 0; bx < g.grid.x; ++bx) {
        if (g.access)
          g.access(&g, nullptr);
        g.block_id = dim3{bx, by, bz};
        std::uint64_t tx = 0, ty = 0, tz = 0;
        for (std::uint64_t n = 0; n < threads; ++n) {
          g.thread_id = dim3{tx, ty, tz};
          Job.thread();
          if (g.fibers) {
            // The rest of the block are fibers now: run them to the end.
            __ofld_cpu_finish_block(&g);
            break;
          }
          if (++tx == b.x) {
            tx = 0;
            if (++ty == b.y) {
              ty = 0;
              ++tz;
            }
          }
        }
        Job.block_done(linear++);
      }
  if (g.access)
    g.access(&g, nullptr);
  g = saved;
}

/// Runs a grid on the calling CPU thread. `dims` is a launch's dims array
/// (runtime_abi.def): grid x,y,z and block x,y,z, none of them 0, then the
/// bytes of dynamic shared memory.
template <class... P>
void cpu_grid(const std::uint32_t *dims, void (*kernel)(P...), void **objs) {
  if constexpr (!reduce::any<P...>) {
    plain_threads<P...> Job{kernel, objs};
    cpu_grid_loop(dims, Job);
  } else {
    reducing_threads<P...> Job{kernel, objs};
    Job.start(dims[3] * dims[4] * dims[5], std::index_sequence_for<P...>{});
    cpu_grid_loop(dims, Job);
    Job.finish(std::uint64_t(dims[0]) * dims[1] * dims[2],
               std::index_sequence_for<P...>{});
  }
}
#endif
#if defined(_OPENMP) && !defined(OFFLOAD_CPU_GRID_INLINE)
#pragma omp end declare target
#endif

} // namespace __ofld

#endif // OFFLOAD_DETAIL_CPU_GRID_HPP
