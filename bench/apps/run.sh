#!/usr/bin/env bash
#===- bench/apps/run.sh - run the application benchmarks on the GPU -------===#
#
# Part of the offload project's benchmark suite.
#
# Runs every apps_<app>_<impl> program in BIN (impl: cuda, ours and the
# reference build ours_unroll4), BENCH_ROUNDS times
# (default 2, the order reversed every other round), and prints the table of
# bench/apps/table.awk last: per app ours and CUDA (median of a program's
# repetitions, mean over rounds), ours / CUDA against the app's goal (issue
# 13's apps <= 1.05, issue 29's <= 1.00), and the reference columns (CUDA's
# event-timed kernel time, the reference builds). Needs bash, awk and
# nvidia-smi. About 2 minutes on an H100 for issue 13's six apps.
#
# Usage, on the GPU machine, from anywhere:
#   source .gpu-runtime/device-env.sh; bench/apps/run.sh LOGDIR [BIN]
#   LOGDIR  receives table.txt, results.txt (every result line, prefixed
#           round=N), gpu.txt (nvidia-smi), raw.tar.gz (each program's
#           output) and, with APPS_SASS=1, sass/ (each kernel's SASS:
#           cuobjdump -sass of the CUDA programs, nvdisasm of BIN/cubin)
#   BIN     the staged programs (default: the folder of this script, where
#           bench/apps/build.sh puts a copy of it)
# BENCH_ARGS_<app> (e.g. BENCH_ARGS_nbody="--reps=5") adds options.
#===----------------------------------------------------------------------===#
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
LOG=${1:?usage: bench/apps/run.sh LOGDIR [BIN]}
BIN=$(cd "${2:-$HERE}" && pwd) || exit 2
ROUNDS=${BENCH_ROUNDS:-2}
APPS="nbody blackscholes mandelbrot kmeans srad montecarlo cfd bfs xsbench btree xsstruct domain"
mkdir -p "$LOG"
LOG=$(cd "$LOG" && pwd)
RAW=$(mktemp -d "${TMPDIR:-/tmp}/apps-raw.XXXXXX")
export LD_LIBRARY_PATH="$BIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OMP_TARGET_OFFLOAD=MANDATORY
unset LIBOMPTARGET_INFO BENCH_PHASES

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv
  [ -f "$BIN/PROVENANCE" ] && cat "$BIN/PROVENANCE"
} > "$LOG/gpu.txt" 2>&1
GPU="$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1), $(date -u +%Y-%m-%d)"
[ -f "$BIN/PROVENANCE" ] && GPU="$GPU; programs $(cat "$BIN/PROVENANCE")"

limit=()
command -v timeout >/dev/null && limit=(timeout "${BENCH_TIMEOUT:-120}")
RES=$LOG/results.txt
: > "$RES"
for round in $(seq 1 "$ROUNDS"); do
  order="cuda ours ours_unroll4"
  [ $((round % 2)) -eq 0 ] && order="ours_unroll4 ours cuda"
  for app in $APPS; do
    for impl in $order; do
      p=apps_${app}_$impl exe=$BIN/apps_${app}_$impl
      if [ ! -x "$exe" ]; then
        echo "round=$round program=$p status=MISSING" >> "$RES"
        continue
      fi
      extra=BENCH_ARGS_$app
      t0=$EPOCHREALTIME
      # shellcheck disable=SC2086 # word splitting of the options is meant
      "${limit[@]}" "$exe" ${!extra:-} > "$RAW/$p.r$round.out" 2> "$RAW/$p.r$round.err"
      rc=$?
      # The reference builds print impl=ours too.
      grep 'median_us=' "$RAW/$p.r$round.out" |
        sed "s/^/round=$round /; s/impl=ours /impl=$impl /" >> "$RES"
      [ $rc -ne 0 ] && echo "round=$round program=$p status=FAIL rc=$rc $(tail -1 "$RAW/$p.r$round.err")" >> "$RES"
      printf 'apps: round %s %-24s rc=%s %5.1f s  %s\n' "$round" "$p" "$rc" \
        "$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN{print b-a}')" \
        "$(grep -h 'results ok' "$RAW/$p.r$round.err" | sed 's/^apps: [^:]*: //')" >&2
    done
  done
done

tar -czf "$LOG/raw.tar.gz" -C "$RAW" . && rm -rf "$RAW"

if [ "${APPS_SASS:-0}" = 1 ]; then
  mkdir -p "$LOG/sass"
  for exe in "$BIN"/apps_*_cuda; do
    cuobjdump -sass "$exe" > "$LOG/sass/$(basename "$exe").sass" 2>&1
  done
  for cubin in "$BIN"/cubin/*.cubin; do
    nvdisasm -c "$cubin" > "$LOG/sass/$(basename "$cubin" .cubin).sass" 2>&1
  done
  tar -czf "$LOG/sass.tar.gz" -C "$LOG" sass && rm -rf "$LOG/sass"
fi

awk -v gpu="$GPU" -v rounds="$ROUNDS" -f "$HERE/table.awk" "$RES" > "$LOG/table.txt"
echo
cat "$LOG/table.txt"
