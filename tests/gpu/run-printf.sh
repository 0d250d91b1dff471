#!/usr/bin/env bash
#===- run-printf.sh - printf from kernels on a GPU, both ways -------------===#
#
# Usage (on the GPU machine, from the project root, after
# `source .gpu-runtime/device-env.sh`):  tests/gpu/run-printf.sh BIN
# BIN holds, as tests/gpu/build-gpu-suite.sh makes them, sm_90 builds of
# tests/e2e/kernel_printf.cpp: e2e_kernel_printf (CUDA's vprintf),
# kernel_printf_buffered (-DOFFLOAD_BUFFERED_PRINTF: the device printf
# buffer AMD GPUs use, docs/DeviceLibrary.md) and kernel_printf_small (the
# same with a 4 KiB buffer), libofld_rt.so and tools/FileCheck. Each output is
# checked against tests/lit/e2e/kernel_printf.test, which holds the host
# target's runs to the same lines. Prints one summary line per check and
# exits non-zero if one failed. run-device-lib.sh runs it.
#===----------------------------------------------------------------------===#
set -u
BIN=${1:-.}
cd "$(dirname "$0")/../.."
export LD_LIBRARY_PATH="$BIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OMP_TARGET_OFFLOAD=${OMP_TARGET_OFFLOAD:-MANDATORY}
LIMIT=${GPU_SUITE_TIMEOUT:-60}
FC=${GPU_SUITE_FILECHECK:-$BIN/tools/FileCheck}
SPEC=tests/lit/e2e/kernel_printf.test
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
failed=0
# check NAME PREFIX FILE: FileCheck FILE against SPEC's PREFIX lines.
check() {
  if "$FC" "$SPEC" --check-prefix="$2" --input-file "$3" > "$T/fc" 2>&1; then
    echo "$1: pass"
  else
    echo "$1: FAIL"; head -20 "$T/fc"; failed=1
  fi
}
for exe in e2e_kernel_printf kernel_printf_buffered; do
  echo "== $exe: 130 lines compared with the host's printf"
  timeout "$LIMIT" "$BIN/$exe" > "$T/$exe.out" 2>&1; echo "exit $?"
  grep -v -e '^block ' -e '^-- ' "$T/$exe.out"
  check "$exe" CHECK "$T/$exe.out"
  echo "== $exe flood 1000 4: four launches at once on queues of their own"
  timeout "$LIMIT" "$BIN/$exe" flood 1000 4 > "$T/$exe.flood" 2>&1; echo "exit $?"
  grep -c '^flood [0-3] line [0-9]*$' "$T/$exe.flood" > "$T/$exe.count"
  check "$exe flood lines" FLOOD-LINES "$T/$exe.count"
  check "$exe flood" FLOOD "$T/$exe.flood"
done
echo "== kernel_printf_small flood 200 1: a 4 KiB buffer holds 85 of the 200 records"
timeout "$LIMIT" "$BIN/kernel_printf_small" flood 200 1 > "$T/small.out" 2> "$T/small.err"
echo "exit $?"
cat "$T/small.err"
grep -c '^flood 0 line [0-9]*$' "$T/small.out" > "$T/small.count"
check "small buffer lines" SMALL-LINES "$T/small.count"
check "small buffer lost" SMALL-LOST "$T/small.err"
check "small buffer threads" SMALL "$T/small.out"
echo "== the time of a launch that waits (2000 of them, 256 threads, nothing printed)"
for exe in e2e_kernel_printf kernel_printf_buffered; do
  printf '%-24s ' "$exe"; timeout "$LIMIT" "$BIN/$exe" launches 2000
done
exit $failed
