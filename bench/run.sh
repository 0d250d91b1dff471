#!/usr/bin/env bash
#===- bench/run.sh - run the suite on the GPU machine and print the table -===#
#
# Part of the offload project's benchmark suite.
#
# Runs every program bench/build.sh staged (CUDA, OpenMP and offload() for
# each measure), BENCH_ROUNDS times (default 2, the order of the three
# reversed every other round), then the transfer accounting on the GPU, and
# prints one table: ours ÷ CUDA and ours ÷ OpenMP per measure, against the
# goals of issue 6. Needs bash, awk and nvidia-smi (no python). About a
# minute on an H200 (47 s with two rounds, 2026-11-21).
#
# Usage, on the GPU machine, from the project root:
#   source .gpu-runtime/device-env.sh; bench/run.sh LOGDIR [BIN]
#   LOGDIR  where the logs go (created), five files, so that the device
#           tool's $OUT can carry them back: table.txt, results.txt (every
#           result line), gpu.txt (nvidia-smi, date), transfers.txt, and
#           raw.tar.gz (each program's stdout/stderr, per-phase transfer
#           counts)
#   BIN     the staged programs (default .gpu-runtime/bench)
# BENCH_ARGS_launch, BENCH_ARGS_stream, BENCH_ARGS_xfer, BENCH_ARGS_seq, BENCH_ARGS_loops:
# extra options of
# those programs (e.g. "--reps=10 --n=1048576" for a quick smoke run).
#===----------------------------------------------------------------------===#
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
LOG=${1:?usage: bench/run.sh LOGDIR [BIN]}
BIN=${2:-.gpu-runtime/bench}
ROUNDS=${BENCH_ROUNDS:-2}
mkdir -p "$LOG"
LOG=$(cd "$LOG" && pwd)
RAW=$(mktemp -d "${TMPDIR:-/tmp}/bench-raw.XXXXXX")
[ -d "$BIN" ] || { echo "bench: no $BIN (run bench/build.sh first, carry .gpu-runtime)" >&2; exit 2; }
export LD_LIBRARY_PATH="$BIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OMP_TARGET_OFFLOAD=MANDATORY
unset LIBOMPTARGET_INFO BENCH_PHASES

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(hostname)  kernel: $(uname -r)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,pstate,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv
  nvidia-smi
} > "$LOG/gpu.txt" 2>&1
GPU="$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1), $(date -u +%Y-%m-%d)"
[ -f "$BIN/PROVENANCE" ] && { GPU="$GPU; programs $(cat "$BIN/PROVENANCE")"; cat "$BIN/PROVENANCE" >> "$LOG/gpu.txt"; }

# A program that hangs must not eat the lease: each gets BENCH_TIMEOUT s.
limit=()
command -v timeout >/dev/null && limit=(timeout "${BENCH_TIMEOUT:-120}")

RES=$LOG/results.txt
: > "$RES"
for round in $(seq 1 "$ROUNDS"); do
  order="cuda omp ours"
  [ $((round % 2)) -eq 0 ] && order="ours omp cuda"
  for m in launch stream xfer seq loops; do
    for impl in $order; do
      p=${m}_$impl exe=$BIN/${m}_$impl
      # seq (issue 15) and loops (issue 30) have no OpenMP baseline.
      [ "$p" = seq_omp ] || [ "$p" = loops_omp ] && continue
      if [ ! -x "$exe" ]; then
        echo "round=$round program=$p status=MISSING" >> "$RES"
        continue
      fi
      t0=$EPOCHREALTIME
      extra=BENCH_ARGS_$m
      # shellcheck disable=SC2086 # word splitting of the options is meant
      "${limit[@]}" "$exe" ${!extra:-} > "$RAW/$p.r$round.out" 2> "$RAW/$p.r$round.err"
      rc=$?
      sed "s/^/round=$round /" "$RAW/$p.r$round.out" | grep 'median_us=' >> "$RES"
      if [ $rc -ne 0 ]; then
        echo "round=$round program=$p status=FAIL rc=$rc" >> "$RES"
        { echo "== $p round $round (rc=$rc), end of stderr:"; tail -5 "$RAW/$p.r$round.err"; } >> "$RAW/failures.txt"
      fi
      # Reference: the 1 KB launch without the argument arena, same round.
      if [ "$p" = launch_ours ]; then
        OFFLOAD_SMALL_ARGS=0 "${limit[@]}" "$exe" --only=launch_1kb 2>/dev/null |
          grep 'median_us=' | sed "s/^/round=$round /; s/impl=ours /impl=ours_noarena /" >> "$RES"
      fi
      # seq: the same on a 512 x 512 grid, where launches weigh more; for
      # ours also without programmatic dependent launch (OFFLOAD_OVERLAP=0)
      # and through libomptarget only (OFFLOAD_FAST_LAUNCH=0), as references.
      # And the 2048² stencils at five placements: with 0-16 MiB of device
      # memory allocated first, as the driver's placement of the arrays
      # moves both implementations' times by a few percent. seq_cuda prints
      # impl=cuda and impl=cuda_pdl (PDL by hand, a reference) in every run.
      if [ "$m" = seq ]; then
        for pad in 0 2048 4096 8192 16384; do
          for st in jacobi2d fdtd2d; do
            "${limit[@]}" "$exe" --pad-kib=$pad --only=seq_$st 2>/dev/null | grep 'median_us=' |
              sed "s/^/round=$round pad_kib=$pad /; s/measure=seq_$st /measure=seq_${st}_placed /" >> "$RES"
          done
        done
        "${limit[@]}" "$exe" --n=512 --only=seq_jacobi2d 2>/dev/null | grep 'median_us=' |
          sed "s/^/round=$round /; s/measure=seq_jacobi2d /measure=seq_jacobi2d_512 /" >> "$RES"
        "${limit[@]}" "$exe" --n=512 --only=seq_fdtd2d 2>/dev/null | grep 'median_us=' |
          sed "s/^/round=$round /; s/measure=seq_fdtd2d /measure=seq_fdtd2d_512 /" >> "$RES"
      fi
      if [ "$p" = seq_ours ]; then
        OFFLOAD_OVERLAP=0 "${limit[@]}" "$exe" 2>/dev/null | grep 'median_us=' |
          sed "s/^/round=$round /; s/impl=ours /impl=ours_no_overlap /" >> "$RES"
        OFFLOAD_FAST_LAUNCH=0 "${limit[@]}" "$exe" --reps=2 2>/dev/null | grep 'median_us=' |
          sed "s/^/round=$round /; s/impl=ours /impl=ours_libomptarget /" >> "$RES"
      fi
      printf 'bench: round %s %-12s rc=%s %6.1f s\n' "$round" "$p" "$rc" \
        "$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN{print b-a}')" >&2
    done
  done
done

# What offload() and OpenMP move per call, from libomptarget's log (1 Mi doubles).
BENCH_TRANSFER_LOGS="$RAW/transfers" "$HERE/transfers/check.sh" "$BIN" "" 1048576 \
  > "$LOG/transfers.txt" 2>&1
trc=$?

awk -v gpu="$GPU" -v rounds="$ROUNDS" -f "$HERE/table.awk" "$RES" > "$LOG/table.txt"
echo "transfer accounting on the GPU: $(tail -1 "$LOG/transfers.txt")" >> "$LOG/table.txt"
[ $trc -eq 0 ] || grep -E '^(FAIL|      got)' "$LOG/transfers.txt" >> "$LOG/table.txt"
[ -s "$RAW/failures.txt" ] && cat "$RAW/failures.txt" >> "$LOG/table.txt"
tar -czf "$LOG/raw.tar.gz" -C "$RAW" . && rm -rf "$RAW"
echo
cat "$LOG/table.txt"
