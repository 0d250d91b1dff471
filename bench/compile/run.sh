#!/usr/bin/env bash
#===- bench/compile/run.sh - the compile-time measure, one command --------===#
#
# Part of the offload project's benchmark suite.
#
# offload() against inline `target teams ompx_bare` OpenMP: a translation unit
# of 20 kernels and 40 launches, compiled (-c) and built into a program, for
# sm_90 and the host offload target, medians of several repetitions
# (time.py says how). Needs a built tree (plugin and libofld_rt); no GPU.
# Writes the output, with the machine it ran on, to
# bench/results/compile-<date>.txt and prints it.
#
# Usage: bench/compile/run.sh [BUILD_DIR (default: build)] [time.py options]
#   e.g. bench/compile/run.sh build --reps 11 --instructions
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-build}"
[ $# -gt 0 ] && shift
build="$(cd "$build" && pwd)"
out="$root/bench/results/compile-$(date -u +%Y-%m-%d).txt"
work="$build/bench-compile"
{
  echo "# bench/compile/run.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), tree $(git -C "$root" rev-parse --short HEAD)"
  echo "# CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores;" \
       "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# $(clang++-22 --version | head -1)"
  python3 "$root/bench/compile/time.py" --plugin "$build/lib/liboffload.so" \
    --rtlib "$build/lib" --workdir "$work" --reps 7 "$@"
  echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out"
