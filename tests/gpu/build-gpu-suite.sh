#!/usr/bin/env bash
#===- build-gpu-suite.sh - build the GPU suite here, run it on the GPU ----===#
#
# The GPU machine has the driver and CUDA but no LLVM: build here (after
# scripts/build.sh), stage the LLVM 22 runtime next to the binaries, then run
# tests/gpu/run-gpu-suite.sh there. From the project root:
#   tests/gpu/build-gpu-suite.sh            # -> .gpu-runtime/bin
#   (device tool) carry [".gpu-runtime"], command:
#   source .gpu-runtime/device-env.sh; tests/gpu/run-gpu-suite.sh .gpu-runtime/bin
#===----------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-.gpu-runtime/bin}
[ -e .gpu-runtime/device-env.sh ] || ../shared/gpu/stage.sh .gpu-runtime
mkdir -p "$OUT"
for src in tests/e2e/*.cpp; do
  name=$(basename "$src" .cpp)
  clang++-22 -std=c++20 -O2 -fplugin=build/lib/liboffload.so -fopenmp -nogpulib \
    --offload-arch=sm_90 --cuda-path=${CUDA_PATH:-/usr/local/cuda} \
    "$src" -o "$OUT/e2e_$name" -Lbuild/lib -lofld_rt
done
cp -P build/lib/libofld_rt.so* "$OUT/"
echo "built $(ls "$OUT"/e2e_* | wc -l) programs in $OUT"
