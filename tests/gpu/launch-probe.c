//===- launch-probe.c - which device each kernel launch runs on ----------===//
//
// Part of the offload project's GPU suite (tests/gpu/run-gpu-suite.sh).
// Preloaded into a test program (LD_PRELOAD), it stands in for
// libomptarget's __tgt_target_kernel, through which every launch the plugin
// lowers passes: it appends "device N UID" to the file $GPU_SUITE_PROBE_LOG,
// where UID is libomptarget's name of the device ("CUDA-...", or "x86_64-0"
// for the host offload target), then launches as usual. The suite fails a
// program any of whose launches did not run on a CUDA device, in its logged
// and its unlogged run alike. It holds no lock and changes no argument.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

typedef int32_t (*LaunchFn)(void *, int64_t, int32_t, int32_t, void *, void *);
typedef const char *(*UidFn)(int);

int32_t __tgt_target_kernel(void *Loc, int64_t DeviceId, int32_t NumTeams,
                            int32_t ThreadLimit, void *HostPtr, void *Args) {
  LaunchFn Real = (LaunchFn)dlsym(RTLD_NEXT, "__tgt_target_kernel");
  UidFn Uid = (UidFn)dlsym(RTLD_DEFAULT, "omp_get_uid_from_device");
  const char *Name = Uid ? Uid((int)DeviceId) : NULL;
  const char *Path = getenv("GPU_SUITE_PROBE_LOG");
  if (Path) {
    char Line[256];
    int N = snprintf(Line, sizeof Line, "device %lld %s\n", (long long)DeviceId,
                     Name ? Name : "(unknown)");
    int Fd = open(Path, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (Fd >= 0) {
      // One write per line: launches on several threads do not interleave.
      if (N > 0 && write(Fd, Line, (size_t)N) != N)
        fprintf(stderr, "launch-probe: cannot write %s\n", Path);
      close(Fd);
    }
  }
  if (!Real) {
    fprintf(stderr, "launch-probe: no __tgt_target_kernel to forward to\n");
    abort();
  }
  return Real(Loc, DeviceId, NumTeams, ThreadLimit, HostPtr, Args);
}
