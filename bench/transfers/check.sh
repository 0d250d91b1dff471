#!/usr/bin/env bash
#===- bench/transfers/check.sh - what moves at each offload() call -------===#
#
# Part of the offload project's benchmark suite.
#
# Runs the offload() and OpenMP programs of the suite through account.sh and
# checks, from libomptarget's own log, what every timed call moves:
#   xfer_triad         2 arrays in (b, c), 1 out (a), one launch per call
#   xfer_triad_tofrom  3 in, 3 out
#   stream_* resident  nothing (dot: only the 2 KB fold comes back)
#   launch_empty       nothing;  launch_1kb: 1 KB in, 1 KB out
# The counts are exact: any extra or missing copy fails.
#
# Usage: check.sh BIN_DIR [SUFFIX] [N]
#   BIN_DIR holds {launch,stream,xfer}_{ours,omp}SUFFIX; N elements (4096).
#   Here:     bench/transfers/check.sh build-bench/bench/bin _host
#   GPU:      bench/transfers/check.sh .gpu-runtime/bench "" 1048576
# BENCH_TRANSFER_LOGS=DIR keeps the per-phase counts there.
#===----------------------------------------------------------------------===#
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BIN=${1:?usage: check.sh BIN_DIR [SUFFIX] [N]}
SUF=${2:-}
N=${3:-4096}
W=1 R=3           # warm-up and timed calls: both happen in the timed phase
C=$((W + R))
FOLD=256          # bench::kDotFold
pass=0 fail=0

# expect LOG PHASE launches h2d_bytes h2d_copies d2h_bytes d2h_copies
expect() {
  local log=$1 phase=$2 want got
  want="phase=$phase launches=$3 h2d_bytes=$4 h2d_copies=$5 d2h_bytes=$6 d2h_copies=$7"
  got=$(grep -F "phase=$phase " "$log" | head -1)
  if [ "$got" = "$want" ]; then
    pass=$((pass + 1)); echo "PASS $want"
  else
    fail=$((fail + 1)); echo "FAIL want: $want"; echo "      got:  ${got:-<phase missing>}"
  fi
}

LOGS=${BENCH_TRANSFER_LOGS:-$(mktemp -d "${TMPDIR:-/tmp}/bench-transfers.XXXXXX")}
mkdir -p "$LOGS"
account() { # LOG PROGRAM ARGS...
  if ! "$HERE/account.sh" "${@:2}" > "$1"; then
    echo "FAIL $2: the program failed (run it with LIBOMPTARGET_INFO=-1)"
    fail=$((fail + 1))
  fi
}

B=$((8 * N))      # bytes of one array
for impl in ours omp; do
  echo "== $impl: xfer (N=$N, $C calls)"
  log=$LOGS/xfer_$impl.txt
  account "$log" "$BIN/xfer_$impl$SUF" --n=$N --warmup=$W --reps=$R
  expect "$log" "xfer_triad:$impl:timed" $C $((C * 2 * B)) $((C * 2)) $((C * B)) $C
  expect "$log" "xfer_triad_tofrom:$impl:timed" $C $((C * 3 * B)) $((C * 3)) $((C * 3 * B)) $((C * 3))
  echo "== $impl: stream, data resident (N=$N, $C calls)"
  log=$LOGS/stream_$impl.txt
  account "$log" "$BIN/stream_$impl$SUF" --n=$N --warmup=$W --reps=$R
  for k in copy mul add triad; do
    expect "$log" "stream_$k:$impl:timed" $C 0 0 0 0
  done
  expect "$log" "stream_dot:$impl:timed" $((2 * C)) 0 0 $((C * 8 * FOLD)) $C
  echo "== $impl: launch ($C calls)"
  log=$LOGS/launch_$impl.txt
  account "$log" "$BIN/launch_$impl$SUF" --warmup=$W --reps=$R
  expect "$log" "launch_empty:$impl:timed" $C 0 0 0 0
  expect "$log" "launch_1kb:$impl:timed" $C $((C * 1024)) $C $((C * 1024)) $C
done
echo "transfers: $pass passed, $fail failed (per-phase counts in $LOGS)"
[ $fail -eq 0 ]
