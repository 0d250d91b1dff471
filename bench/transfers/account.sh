#!/usr/bin/env bash
#===- bench/transfers/account.sh - bytes moved per phase of a program ----===#
#
# Part of the offload project's benchmark suite.
#
# Runs a program with LIBOMPTARGET_INFO=-1 and BENCH_PHASES=1 and counts,
# per phase the program marks on stderr ("bench-phase: measure:impl:what"),
# the kernel launches and the bytes libomptarget copies each way:
#   phase=stream_copy:ours:timed launches=105 h2d_bytes=0 h2d_copies=0 d2h_bytes=0 d2h_copies=0
# Copies before the first mark count under phase=start. Needs bash and awk.
#
# Usage: account.sh PROGRAM [ARGS...]     (exit status: the program's)
#===----------------------------------------------------------------------===#
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: $0 PROGRAM [ARGS...]" >&2; exit 2; }
export LIBOMPTARGET_INFO=-1 BENCH_PHASES=1
export OMP_TARGET_OFFLOAD=${OMP_TARGET_OFFLOAD:-MANDATORY}
# offload() copies ranges of 2 MiB or more to and from a CUDA device through
# its own pinned staging buffers (runtime/lib/data/Staging.cpp), bypassing
# libomptarget; the runtime logs those copies in libomptarget's words
# ("Copying data from host to device through pinned staging, ... Size=N"),
# so they count here too.
# The program's own stdout is dropped; libomptarget and the marks are on stderr.
"$@" 2>&1 >/dev/null | awk '
  function size(   m) { return match($0, /Size=[0-9]+/) ? substr($0, RSTART + 5, RLENGTH - 5) + 0 : 0 }
  function see(p) { if (!(p in seen)) { seen[p] = 1; order[++np] = p } }
  BEGIN { cur = "start"; see(cur) }
  /^bench-phase: / { cur = $2; see(cur); next }
  /^bench: / { print > "/dev/stderr" }
  /Copying data from host to device/ { h2d[cur] += size(); h2dn[cur]++ }
  /Copying data from device to host/ { d2h[cur] += size(); d2hn[cur]++ }
  /Launching kernel / { launches[cur]++ }
  END {
    for (i = 1; i <= np; i++) {
      p = order[i]
      printf "phase=%s launches=%d h2d_bytes=%.0f h2d_copies=%d d2h_bytes=%.0f d2h_copies=%d\n",
             p, launches[p], h2d[p], h2dn[p], d2h[p], d2hn[p]
    }
  }'
exit "${PIPESTATUS[0]}"
