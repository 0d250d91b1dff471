#!/usr/bin/env bash
#===- bench/reduce/kernel_only/run.sh - build the kernel-only comparison ---===#
#
# Part of the offload project's benchmark suite (issue 16, item 4).
#
# Builds, into DIR (default build-bench/kernel_only), CUDA's cubins of
# kernels.cu, offload's cubin out of reduce_ours (BENCH_BIN, default
# build-bench/bench/bin) and the harness. Then on the GPU machine:
#   (cd DIR && ./harness .)
#===----------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")"
OUT=${1:-../../../build-bench/kernel_only}
BIN=${BENCH_BIN:-../../../build-bench/bench/bin}
CUDA=${CUDA_PATH:-/usr/local/cuda}
LLVM_BIN=$(llvm-config-22 --bindir 2> /dev/null || echo /usr/lib/llvm-22/bin)
mkdir -p "$OUT"
"$CUDA/bin/nvcc" -O2 -arch=sm_90 -cubin kernels.cu -o "$OUT/nvcc_whole.cubin"
"$CUDA/bin/nvcc" -O2 -arch=sm_90 -rdc=true -cubin kernels.cu -o "$OUT/reloc.cubin"
"$CUDA/bin/nvlink" -arch=sm_90 "$OUT/reloc.cubin" -o "$OUT/nvcc_rdc.cubin"
"$LLVM_BIN/llvm-objcopy" --dump-section=.llvm.offloading="$OUT/offload.bin" \
  "$BIN/reduce_ours" /dev/null
"$LLVM_BIN/llvm-offload-binary" "$OUT/offload.bin" \
  --image=file="$OUT/ours.cubin",arch=sm_90
"$CUDA/bin/nvcc" -O2 -arch=sm_90 -std=c++17 harness.cu -o "$OUT/harness" \
  -L"$CUDA/lib64/stubs" -lcuda
rm -f "$OUT/reloc.cubin" "$OUT/offload.bin"
echo "built in $OUT; on the GPU machine: (cd $OUT && ./harness .)"
