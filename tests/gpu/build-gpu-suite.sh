#!/usr/bin/env bash
#===- build-gpu-suite.sh - build the GPU suite here, run it on the GPU ----===#
#
# The GPU machine has the driver and CUDA but no LLVM: build here (after
# scripts/build.sh), stage the LLVM 22 runtime next to the binaries, then run
# tests/gpu/run-gpu-suite.sh there. From the project root:
#   tests/gpu/build-gpu-suite.sh            # -> .gpu-runtime/bin
#   (device tool) carry [".gpu-runtime"], command:
#   source .gpu-runtime/device-env.sh; tests/gpu/run-gpu-suite.sh .gpu-runtime/bin
# Besides the sm_90 builds (e2e_*), it builds a few programs as one binary for
# several targets (multiarch_*: sm_90, gfx90a and the host target) and, where
# mpicxx is installed, examples/mpi (mpi_stream, multiarch_mpi_stream) for
# tests/gpu/run-mpi.sh. OFFLOAD_BUILD names the build tree (default build).
#===----------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-.gpu-runtime/bin}
B=${OFFLOAD_BUILD:-build}
[ -e .gpu-runtime/device-env.sh ] || ../shared/gpu/stage.sh .gpu-runtime
mkdir -p "$OUT"
CUDA=${CUDA_PATH:-/usr/local/cuda}
COMMON="-std=c++20 -O2 -fplugin=$B/lib/liboffload.so -fopenmp -nogpulib"
SM90="--offload-arch=sm_90 --cuda-path=$CUDA"
# OFFLOAD_ARCHS="sm_90;gfx90a;x86_64-pc-linux-gnu" (cmake/OffloadFlags.cmake)
MULTI="-fopenmp-targets=nvptx64-nvidia-cuda,amdgcn-amd-amdhsa,x86_64-pc-linux-gnu
  -Xopenmp-target=nvptx64-nvidia-cuda --offload-arch=sm_90 --cuda-path=$CUDA
  -Xopenmp-target=amdgcn-amd-amdhsa --offload-arch=gfx90a"
for src in tests/e2e/*.cpp; do
  name=$(basename "$src" .cpp)
  clang++-22 $COMMON $SM90 "$src" -o "$OUT/e2e_$name" -L$B/lib -lofld_rt
done
for src in tests/e2e/saxpy.cpp tests/e2e/multi_device.cpp \
           tests/lit/multiarch/Inputs/devices.cpp; do
  name=$(basename "$src" .cpp)
  clang++-22 $COMMON $MULTI "$src" -o "$OUT/multiarch_$name" -L$B/lib -lofld_rt \
    2> "$OUT/multiarch_$name.log" || { cat "$OUT/multiarch_$name.log"; exit 1; }
done
if command -v mpicxx >/dev/null; then
  MPI_FLAGS="$(mpicxx --showme:compile) examples/mpi/mpi_stream.cpp $(mpicxx --showme:link)"
  clang++-22 $COMMON $SM90 $MPI_FLAGS -o "$OUT/mpi_stream" -L$B/lib -lofld_rt
  clang++-22 $COMMON $MULTI $MPI_FLAGS -o "$OUT/multiarch_mpi_stream" -L$B/lib \
    -lofld_rt 2> "$OUT/multiarch_mpi_stream.log"
fi
rm -f "$OUT"/*.log
cp -P $B/lib/libofld_rt.so* "$OUT/"
echo "built $(ls "$OUT"/e2e_* "$OUT"/multiarch_* "$OUT"/mpi_* 2>/dev/null | wc -l) programs in $OUT"
