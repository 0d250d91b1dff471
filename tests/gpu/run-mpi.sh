#!/usr/bin/env bash
#===- run-mpi.sh - examples/mpi on the GPU machine ------------------------===#
#
# Usage (on the GPU machine, from the project root, after staging the LLVM
# runtime and Open MPI, see build-gpu-suite.sh and stage-mpi.sh):
#   source .gpu-runtime/device-env.sh; source <mpi dir>/mpi-env.sh
#   tests/gpu/run-mpi.sh <bin dir> [elements per rank] [iterations]
# Runs mpi_stream with 1 rank, with 2 ranks (on one GPU, or one per GPU
# where there are two or more), with one rank per GPU where there are more
# than two, with two ranks per GPU where there are several, and the one
# binary for several targets with 2 ranks.
#===----------------------------------------------------------------------===#
set -u
BIN=${1:-.gpu-runtime/bin}
N=${2:-33554432}
IT=${3:-20}
export LD_LIBRARY_PATH="$BIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OMP_TARGET_OFFLOAD=MANDATORY
gpus=$(nvidia-smi --list-gpus | wc -l)
echo "== $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1), $gpus GPU(s)"
fail=0
run() {
  echo "-- mpirun -np $1 $(basename "$2") $N $IT"
  mpirun -np "$1" "$2" "$N" "$IT" 2>&1 || fail=$((fail + 1))
}
run 1 "$BIN/mpi_stream"
run 2 "$BIN/mpi_stream"
[ "$gpus" -gt 2 ] && run "$gpus" "$BIN/mpi_stream"
[ "$gpus" -gt 1 ] && run $((2 * gpus)) "$BIN/mpi_stream"
[ -x "$BIN/multiarch_mpi_stream" ] && run 2 "$BIN/multiarch_mpi_stream"
echo "$fail run(s) failed"
[ $fail -eq 0 ]
