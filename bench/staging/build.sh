#!/usr/bin/env bash
#===- bench/staging/build.sh - build the staging benchmark for the GPU ----===#
#
# Builds staging_bench for sm_90 against the runtime of a build tree and puts
# it, the runtime and run.sh into .gpu-runtime/staging (git ignores it). On
# the GPU machine (carry .gpu-runtime):
#   source .gpu-runtime/device-env.sh; bash .gpu-runtime/staging/run.sh
#
# Usage, from the project's root: bench/staging/build.sh [BUILD_DIR]
#===----------------------------------------------------------------------===#
set -euo pipefail
BUILD="${1:-build}"
OUTDIR=.gpu-runtime/staging
ninja -C "$BUILD" ofld_rt
mkdir -p "$OUTDIR"
clang++-22 -O2 -std=c++20 -fopenmp --offload-arch=sm_90 -nogpulib \
  --cuda-path="${CUDA_PATH:-/usr/local/cuda}" -Iruntime/lib -Iruntime/include \
  bench/staging/staging_bench.cpp -L"$BUILD/lib" -lofld_rt \
  -Wl,-rpath,'$ORIGIN' -o "$OUTDIR/staging_bench"
cp -L "$BUILD/lib/libofld_rt.so.0" "$OUTDIR/"
cp bench/staging/run.sh "$OUTDIR/run.sh"
echo "staged in $OUTDIR"
