#!/usr/bin/env bash
#===- run-device-lib.sh - the device library's programs on a GPU, in detail ===#
#
# Usage (on the GPU machine, from the project root, after
# `source .gpu-runtime/device-env.sh`):  tests/gpu/run-device-lib.sh BIN
# BIN holds sm_90 builds of tests/e2e (e2e_<name>, as build-gpu-suite.sh
# makes them) and libofld_rt.so. Shows what run-gpu-suite.sh only counts:
# the math conformance table (2048 inputs per function, the pass/fail run,
# and 100000, the measurement in docs/DeviceLibrary.md), a failing assert's
# own output and exit status (offloading mandatory and by default), printf
# (both ways, tests/gpu/run-printf.sh),
# large by-value structs; then a summary of every e2e program.
#===----------------------------------------------------------------------===#
set -u
BIN=${1:-.}
export LD_LIBRARY_PATH="$BIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OMP_TARGET_OFFLOAD=${OMP_TARGET_OFFLOAD:-MANDATORY}
LIMIT=${GPU_SUITE_TIMEOUT:-60}
echo "== GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | head -1)"
echo "== device_math (pass/fail run)"
timeout "$LIMIT" "$BIN/e2e_device_math"; echo "exit $?"
echo "== device_math, 100000 inputs per function"
timeout "$LIMIT" "$BIN/e2e_device_math" 100000 | grep -v -e '  exact ' -e ' differ '
echo "== device_math built without -O (device code at the plugin's default -O3)"
if [ -x "$BIN/device_math_noopt" ]; then
  timeout "$LIMIT" "$BIN/device_math_noopt" | tail -1; echo "exit ${PIPESTATUS[0]}"
else
  echo "not built (tests/gpu/build-gpu-suite.sh builds device_math_noopt)"
fi
echo "== a failing assert: the child on its own, OMP_TARGET_OFFLOAD=MANDATORY"
timeout "$LIMIT" "$BIN/e2e_kernel_assert" fail; echo "exit $?"
echo "== the same with OMP_TARGET_OFFLOAD unset"
(unset OMP_TARGET_OFFLOAD; timeout "$LIMIT" "$BIN/e2e_kernel_assert" fail; echo "exit $?")
echo "== kernel_assert (checks its child)"
timeout "$LIMIT" "$BIN/e2e_kernel_assert" | tail -3
echo "== printf, CUDA's vprintf and buffered (tests/gpu/run-printf.sh)"
bash "$(dirname "$0")/run-printf.sh" "$BIN"; echo "exit $?"
echo "== big_by_value"
start=$EPOCHREALTIME
timeout "$LIMIT" "$BIN/e2e_big_by_value"; echo "exit $? in $(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.1f", (b-a)*1000}') ms"
echo "== every e2e program"
pass=0 fail=0
for exe in "$BIN"/e2e_*; do
  name=$(basename "$exe")
  out=$(timeout "$LIMIT" "$exe" 2>&1); rc=$?
  if [ $rc -eq 0 ]; then pass=$((pass + 1)); st=PASS; else fail=$((fail + 1)); st=FAIL; fi
  printf '%-24s %-4s rc=%-3s %s\n' "$name" "$st" "$rc" "$(echo "$out" | tail -1 | cut -c1-90)"
done
echo "$pass passed, $fail failed"
