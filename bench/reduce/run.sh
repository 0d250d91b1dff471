#!/usr/bin/env bash
#===- bench/reduce/run.sh - reductions against CUDA, on the GPU machine --===#
#
# Part of the offload project's benchmark suite (issue 16, item 4).
#
# Runs BIN/reduce_cuda and BIN/reduce_ours ROUNDS times (default 2, the
# order reversed every other round), keeps each (measure, implementation,
# shape)'s best median over the rounds, and prints: per measure the best
# CUDA variant and shape, offload's best shape, offload at CUDA's best shape,
# and the ratios of bandwidths (>= 1.0: offload is as fast or faster); for
# dot also the ratio to offload's own triad. Needs awk.
#
# Usage, from the project root on the GPU machine (after
# `source .gpu-runtime/device-env.sh`, with libofld_rt.so in BIN):
#   bench/reduce/run.sh BIN LOGDIR [program options, e.g. --reps=500]
#===----------------------------------------------------------------------===#
set -uo pipefail
BIN=${1:?usage: run.sh BIN LOGDIR [options]}
LOG=${2:?usage: run.sh BIN LOGDIR [options]}
shift 2
mkdir -p "$LOG"
export LD_LIBRARY_PATH="$BIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OMP_TARGET_OFFLOAD=MANDATORY
: > "$LOG/results.txt"
for round in $(seq 1 "${ROUNDS:-2}"); do
  order="cuda ours"
  [ $((round % 2)) -eq 0 ] && order="ours cuda"
  for impl in $order; do
    "$BIN/reduce_$impl" "$@" > "$LOG/$impl.r$round.txt" 2> "$LOG/$impl.r$round.err" ||
      echo "reduce_$impl round $round: exit $?" | tee -a "$LOG/results.txt"
    grep 'median_us=' "$LOG/$impl.r$round.txt" >> "$LOG/results.txt"
  done
done

awk '
function field(name,   i) {
  for (i = 1; i <= NF; ++i) if (index($i, name "=") == 1) return substr($i, length(name) + 2);
  return "";
}
/median_us=/ {
  m = field("measure"); impl = field("impl"); shape = field("grid") "x" field("block");
  g = field("gbs") + 0; key = m SUBSEP impl SUBSEP shape;
  if (!(key in best) || g > best[key]) best[key] = g;
  measures[m] = 1;
}
END {
  printf "%-11s %-34s %9s  %-24s %9s  %9s  %6s  %6s\n", "measure", "best CUDA (variant, grid x block)", "GB/s",
         "best offload (grid x block)", "GB/s", "same-shape", "best", "same";
  for (m in measures) {
    if (m == "triad") continue;
    bc = -1; bo = -1;
    for (k in best) {
      split(k, p, SUBSEP);
      if (p[1] != m) continue;
      if (p[2] ~ /^cuda/ && best[k] > bc) { bc = best[k]; bci = p[2]; bcs = p[3]; }
      if (p[2] == "ours" && best[k] > bo) { bo = best[k]; bos = p[3]; }
    }
    same = best[m SUBSEP "ours" SUBSEP bcs];
    printf "%-11s %-34s %9.1f  %-24s %9.1f  %9.1f  %6.3f  %6.3f\n", m, bci " " bcs, bc, bos, bo, same,
           bo / bc, same / bc;
    if (m == "reduce_dot") dot = bo;
  }
  for (k in best) {
    split(k, p, SUBSEP);
    if (p[1] == "triad") printf "triad %-5s %9.1f GB/s\n", p[2], best[k];
    if (p[1] == "triad" && p[2] == "ours") tri = best[k];
  }
  if (tri > 0) printf "offload dot / offload triad bandwidth: %.3f\n", dot / tri;
}' "$LOG/results.txt" | tee "$LOG/table.txt"
