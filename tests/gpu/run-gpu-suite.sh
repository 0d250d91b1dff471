#!/usr/bin/env bash
#===- run-gpu-suite.sh - run the end-to-end programs on a GPU -------------===#
#
# Usage (on the GPU machine, from the project root):
#   source .gpu-runtime/device-env.sh; tests/gpu/run-gpu-suite.sh .gpu-runtime/bin
# The folder holds the sm_90 builds of tests/e2e made by
# tests/gpu/build-gpu-suite.sh and libofld_rt.so. Offloading is mandatory:
# a silent CPU fallback fails the run. The multiarch_* programs hold images
# for sm_90, gfx90a and the host target in one binary and must run on the
# GPU too (ofld::device_count() counts the GPUs; the host target's devices
# are used only where there is no GPU or OMP_DEFAULT_DEVICE names one).
#===----------------------------------------------------------------------===#
set -u
BIN=${1:-.gpu-runtime/bin}
export LD_LIBRARY_PATH="$BIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OMP_TARGET_OFFLOAD=MANDATORY
# A program that hangs fails after this many seconds instead of stopping the suite.
LIMIT=${GPU_SUITE_TIMEOUT:-60}
pass=0; fail=0; rows=()
for exe in "$BIN"/e2e_* "$BIN"/multiarch_*; do
  name=$(basename "$exe")
  case $name in *mpi*) continue ;; esac # tests/gpu/run-mpi.sh runs them
  echo "gpu-suite: $name" >&2 # progress, in case one hangs
  start=$EPOCHREALTIME
  out=$(timeout "$LIMIT" "$exe" 2>&1); rc=$?
  [ $rc -eq 124 ] && out="$out
timed out after $LIMIT s"
  ms=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.1f", (b-a)*1000}')
  launched=$(LIBOMPTARGET_INFO=-1 timeout "$LIMIT" "$exe" 2>&1 | grep -c 'Launching kernel __ofld_')
  if [ $rc -eq 0 ] && [ "$launched" -gt 0 ]; then pass=$((pass+1)); st=PASS; else fail=$((fail+1)); st=FAIL; fi
  rows+=("$(printf '%-22s %-5s launches=%-3s %8s ms  %s' "$name" "$st" "$launched" "$ms" "$(echo "$out" | tail -1)")")
done
echo "== transfers of out_param (const span in, out span and out struct back only)"
LIBOMPTARGET_INFO=-1 "$BIN/e2e_out_param" 2>&1 | grep -E 'Copying data|Launching kernel' | sed 's/HstPtr=0x[0-9a-f]*, TgtPtr=0x[0-9a-f]*, //'
echo "== transfers of struct_const_ref (const& struct to device only)"
LIBOMPTARGET_INFO=-1 "$BIN/e2e_struct_const_ref" 2>&1 | grep -E 'Copying data|Launching kernel' | sed 's/HstPtr=0x[0-9a-f]*, TgtPtr=0x[0-9a-f]*, //'
if [ -x "$BIN/multiarch_devices" ]; then
  echo "== one binary for sm_90, gfx90a and the host target: devices and where launches run"
  LIBOMPTARGET_INFO=-1 "$BIN/multiarch_devices" 2>&1 | grep -E '^ |devices:|Entering OpenMP kernel|Launching kernel|^ok|FAIL'
  echo "-- OMP_DEFAULT_DEVICE=0 (libomptarget's device 0)"
  OMP_DEFAULT_DEVICE=0 LIBOMPTARGET_INFO=-1 "$BIN/multiarch_devices" 2>&1 | grep -E 'Entering OpenMP kernel|Launching kernel|^ok|FAIL'
  echo "-- ofld::set_default_device(0)"
  LIBOMPTARGET_INFO=-1 "$BIN/multiarch_devices" 0 2>&1 | grep -E 'Entering OpenMP kernel|Launching kernel|^ok|FAIL'
fi
echo "== GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
printf '%s\n' "${rows[@]}"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
