//===- offload/bridge/errors.hpp - reporting failures -----------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Not for users. How the bridge reports: the error handler of
// ofld::set_error_handler, the words of every message and the errors that
// wait for the next point that waits, by the rules libofld_rt follows
// (offload/policy/errors.hpp); and the notes on what runs differently from
// the plugin's build.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BRIDGE_ERRORS_HPP
#define OFFLOAD_BRIDGE_ERRORS_HPP

#include "offload/bridge/grid.hpp"
#include "offload/policy/errors.hpp"

#if defined(_OPENMP) && !defined(OFFLOAD_GPU_DEVICE)
namespace ofld::bridge {
namespace detail {

inline std::atomic<ofld::error_handler> &handler() {
  static std::atomic<ofld::error_handler> H{nullptr};
  return H;
}

/// Reports a whole "offload: ..." message as the offload runtime does: to
/// the handler, else on stderr with exit status 1.
inline void report(const char *Message) {
  ofld::policy::deliver(handler().load(), Message);
}

/// Reports `Cause` for the call at `S` (or a region, without one).
[[gnu::format(printf, 2, 3)]] inline void fail(const site *S,
                                               const char *Format, ...) {
  char Cause[512], Message[1024];
  va_list Args;
  va_start(Args, Format);
  std::vsnprintf(Cause, sizeof(Cause), Format, Args);
  va_end(Args);
  ofld::policy::formatSiteMessage(
      Message, sizeof(Message), S ? S->kernel : nullptr, S ? S->file : nullptr,
      S ? S->line : 0, Cause);
  report(Message);
}

/// Reports `Cause` for `What` (a region update, a device_buffer) at `P`, in
/// the runtime's words.
[[gnu::format(printf, 3, 4)]] inline void
failAt(const __ofld_place *P, const char *What, const char *Format, ...) {
  char Cause[512], Message[1024];
  va_list Args;
  va_start(Args, Format);
  std::vsnprintf(Cause, sizeof(Cause), Format, Args);
  va_end(Args);
  ofld::policy::formatPlaceMessage(Message, sizeof(Message), What,
                                   P ? P->file : nullptr, P ? P->line : 0,
                                   Cause);
  report(Message);
}

/// An error of a launch that did not wait (`.nowait`), reported at the next
/// point that waits, as the plugin's runtime does (docs/StreamOrdering.md):
/// ofld::wait(), the wait() of the launch's queue, the end of an
/// ofld::region on its device, the end of the program.
struct deferred_error {
  int device, queue;
  std::string message;
};
/// (Never destroyed: the end of the program reports what is left.)
inline std::mutex &deferredLock() {
  static auto *M = new std::mutex;
  return *M;
}
inline std::vector<deferred_error> &deferredErrors() {
  static auto *V = new std::vector<deferred_error>;
  return *V;
}

/// Reports the deferred errors of OpenMP device `Device` and queue `Queue`
/// (-1: any), in the order they happened.
inline void reportDeferred(int Device, int Queue) {
  std::vector<deferred_error> Now;
  {
    std::lock_guard<std::mutex> Guard(deferredLock());
    std::vector<deferred_error> &All = deferredErrors();
    if (All.empty())
      return;
    std::vector<deferred_error> Later;
    for (deferred_error &E : All)
      (ofld::policy::dueAt(E.device, E.queue, Device, Queue) ? Now : Later)
          .push_back(std::move(E));
    All.swap(Later);
  }
  for (const deferred_error &E : Now)
    report(E.message.c_str());
}

/// The end of the program waits too: what is left is reported there (no
/// std::exit while the program exits).
struct deferred_at_exit {
  ~deferred_at_exit() {
    std::vector<deferred_error> Left;
    {
      std::lock_guard<std::mutex> Guard(deferredLock());
      Left.swap(deferredErrors());
    }
    for (const deferred_error &E : Left)
      ofld::policy::deliverAtExit(handler().load(), E.message.c_str());
  }
};
inline deferred_at_exit DeferredAtExit;

/// Reports `Cause` for launch `G`: at once, or at the next point that waits
/// where the launch did not wait.
[[gnu::format(printf, 2, 3)]] inline void failLaunch(const grid &G,
                                                     const char *Format, ...) {
  char Cause[512], Message[1024];
  va_list Args;
  va_start(Args, Format);
  std::vsnprintf(Cause, sizeof(Cause), Format, Args);
  va_end(Args);
  ofld::policy::formatSiteMessage(Message, sizeof(Message), G.at.kernel,
                                  G.at.file, G.at.line, Cause);
  if (!ofld::policy::defers(!G.nowait)) {
    report(Message);
    return;
  }
  std::lock_guard<std::mutex> Guard(deferredLock());
  deferredErrors().push_back({G.device, G.queue, Message});
}

/// Reports `Cause` once per call site on stderr: what runs differently
/// from the plugin's build, not an error.
[[gnu::format(printf, 2, 3)]] inline void note(const site &S,
                                               const char *Format, ...) {
  static std::mutex Lock;
  static std::vector<std::pair<const char *, unsigned>> Seen;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    for (const auto &[File, Line] : Seen)
      if (Line == S.line && !std::strcmp(File, S.file))
        return;
    Seen.emplace_back(S.file, S.line);
  }
  char Cause[512];
  va_list Args;
  va_start(Args, Format);
  std::vsnprintf(Cause, sizeof(Cause), Format, Args);
  va_end(Args);
  std::fprintf(stderr, "offload: kernel '%s' at %s:%u: note: %s\n", S.kernel,
               S.file, S.line, Cause);
}

} // namespace detail
} // namespace ofld::bridge
#endif

#endif // OFFLOAD_BRIDGE_ERRORS_HPP
