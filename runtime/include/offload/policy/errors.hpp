//===- offload/policy/errors.hpp - failures, worded and told ----*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The words of every "offload: ..." message that libofld_rt and the OpenMP
// bridge both report, and what happens to a message: the program's error
// handler gets it, else it goes to stderr and the program exits with status
// 1; a launch that did not wait (`.nowait`) has its errors reported at the
// next point that waits for it (docs/StreamOrdering.md). Tests compare these
// words exactly, for both builds.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_POLICY_ERRORS_HPP
#define OFFLOAD_POLICY_ERRORS_HPP

#include <cstddef>
#include <cstdio>
#include <cstdlib>

namespace ofld::policy {

/// The program's error handler (ofld::error_handler), null when none is set.
using ErrorHandler = void (*)(const char *Message);

/// "offload: kernel '<Kernel>' at <File>:<Line>: <Cause>", or, for a failure
/// without a launch site (null `Kernel`), "offload: ofld::region: <Cause>".
inline void formatSiteMessage(char *Out, std::size_t Size, const char *Kernel,
                              const char *File, unsigned Line,
                              const char *Cause) {
  if (Kernel)
    std::snprintf(Out, Size, "offload: kernel '%s' at %s:%u: %s", Kernel, File,
                  Line, Cause);
  else
    std::snprintf(Out, Size, "offload: ofld::region: %s", Cause);
}

/// "offload: <What> at <File>:<Line>: <Cause>" for a region or device_buffer
/// call (`What`), or "offload: <What>: <Cause>" where its place is unknown
/// (null `File`).
inline void formatPlaceMessage(char *Out, std::size_t Size, const char *What,
                               const char *File, unsigned Line,
                               const char *Cause) {
  if (File)
    std::snprintf(Out, Size, "offload: %s at %s:%u: %s", What, File, Line,
                  Cause);
  else
    std::snprintf(Out, Size, "offload: %s: %s", What, Cause);
}

/// "device" or "devices" after a count.
constexpr const char *plural(int Count) { return Count == 1 ? "" : "s"; }

/// The cause for an offload device number that names none of `Count`.
inline void noSuchDeviceCause(char *Out, std::size_t Size, int Requested,
                              int Count) {
  std::snprintf(Out, Size,
                "device %d does not exist (%d offload device%s available)",
                Requested, Count, plural(Count));
}

/// Tells `Message` (a whole "offload: ..." line): to `Handler`, else on
/// stderr and exit(1). Returns only when there is a handler.
inline void deliver(ErrorHandler Handler, const char *Message) {
  if (Handler) {
    Handler(Message);
    return;
  }
  std::fprintf(stderr, "%s\n", Message);
  std::exit(EXIT_FAILURE);
}

/// deliver() while the program exits, where exit() may not run again.
inline void deliverAtExit(ErrorHandler Handler, const char *Message) {
  if (Handler) {
    Handler(Message);
    return;
  }
  std::fprintf(stderr, "%s\n", Message);
  std::fflush(nullptr);
  std::_Exit(EXIT_FAILURE);
}

/// Whether an error of a launch is kept for the next point that waits
/// rather than reported at once: the launch did not wait.
constexpr bool defers(bool LaunchWaits) { return !LaunchWaits; }

/// Whether a point that waits for `Device` and its queue `Queue` (-1: any)
/// reports an error deferred by a launch on `ErrorDevice`, `ErrorQueue`.
constexpr bool dueAt(int ErrorDevice, int ErrorQueue, int Device, int Queue) {
  return (Device == -1 || ErrorDevice == Device) &&
         (Queue == -1 || ErrorQueue == Queue);
}

} // namespace ofld::policy

#endif // OFFLOAD_POLICY_ERRORS_HPP
