#!/usr/bin/env bash
#===- build-gpu-suite.sh - build the GPU suite here, run it on the GPU ----===#
#
# The GPU machine has the driver and CUDA but no LLVM: build here (after
# scripts/build.sh), stage the LLVM 22 runtime next to the binaries, then run
# tests/gpu/run-gpu-suite.sh there. From the project root:
#   tests/gpu/build-gpu-suite.sh [DIR]      # default .gpu-runtime/bin
#   (device tool) carry [".gpu-runtime", DIR], command:
#   source .gpu-runtime/device-env.sh; tests/gpu/run-gpu-suite.sh DIR
# Besides the sm_90 builds of tests/e2e (e2e_*), it builds a few programs as
# one binary for several targets (multiarch_*: sm_90, gfx90a and the host
# target) and, where mpicxx is installed, examples/mpi (mpi_stream,
# multiarch_mpi_stream) for tests/gpu/run-mpi.sh. The suite needs, beside
# them, libofld_rt.so, liblaunch-probe.so (tests/gpu/launch-probe.c) and
# tools/FileCheck (LLVM's, which runs with the staged LLVM runtime).
# OFFLOAD_BUILD names the build tree (default build).
#
# GPU_SUITE_DEMOS=1 also builds two programs the suite must fail, each as
# e2e_saxpy in its own folder: DIR/demo-host-target (saxpy for the host
# offload target, which libomptarget runs on the CPU even where a GPU is)
# and DIR/demo-wrong-saxpy (an sm_90 saxpy that updates only y[0..7]):
#   GPU_SUITE_FILECHECK=DIR/tools/FileCheck GPU_SUITE_PROBE_LIB=DIR/liblaunch-probe.so \
#   LD_LIBRARY_PATH=DIR:$LD_LIBRARY_PATH tests/gpu/run-gpu-suite.sh DIR/demo-... e2e_saxpy
#===----------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-.gpu-runtime/bin}
B=${OFFLOAD_BUILD:-build}
[ -e .gpu-runtime/device-env.sh ] || ../shared/gpu/stage.sh .gpu-runtime
mkdir -p "$OUT/tools"
CUDA=${CUDA_PATH:-/usr/local/cuda}
LLVM_BIN=$(llvm-config-22 --bindir 2> /dev/null || echo /usr/lib/llvm-22/bin)
COMMON="-std=c++20 -O2 -fplugin=$B/lib/liboffload.so -fopenmp -nogpulib"
SM90="--offload-arch=sm_90 --cuda-path=$CUDA"
HOST="-fopenmp-targets=x86_64-pc-linux-gnu"
# OFFLOAD_ARCHS="sm_90;gfx90a;x86_64-pc-linux-gnu" (cmake/OffloadFlags.cmake)
MULTI="-fopenmp-targets=nvptx64-nvidia-cuda,amdgcn-amd-amdhsa,x86_64-pc-linux-gnu
  -Xopenmp-target=nvptx64-nvidia-cuda --offload-arch=sm_90 --cuda-path=$CUDA
  -Xopenmp-target=amdgcn-amd-amdhsa --offload-arch=gfx90a"
for src in tests/e2e/*.cpp; do
  name=$(basename "$src" .cpp)
  clang++-22 $COMMON $SM90 "$src" -o "$OUT/e2e_$name" -L$B/lib -lofld_rt
done
# The conformance test once more without -O: device code at the plugin's
# default -O3 (tests/gpu/run-device-lib.sh runs it).
clang++-22 ${COMMON/-O2 /} $SM90 tests/e2e/device_math.cpp \
  -o "$OUT/device_math_noopt" -L$B/lib -lofld_rt
# kernel_printf with device printf buffered as on AMD GPUs, and with a 4 KiB
# buffer (tests/gpu/run-printf.sh runs them).
clang++-22 $COMMON $SM90 -DOFFLOAD_BUFFERED_PRINTF tests/e2e/kernel_printf.cpp \
  -o "$OUT/kernel_printf_buffered" -L$B/lib -lofld_rt
clang++-22 $COMMON $SM90 -DOFFLOAD_BUFFERED_PRINTF \
  -DOFFLOAD_PRINTF_BUFFER_BYTES=4096 tests/e2e/kernel_printf.cpp \
  -o "$OUT/kernel_printf_small" -L$B/lib -lofld_rt
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
if [ "${GPU_SUITE_DEMOS:-0}" = 1 ]; then
  mkdir -p "$OUT/demo-host-target" "$OUT/demo-wrong-saxpy"
  clang++-22 $COMMON $HOST tests/e2e/saxpy.cpp \
    -o "$OUT/demo-host-target/e2e_saxpy" -L$B/lib -lofld_rt
  # The bound check limits the update to the first 8 elements.
  sed 's/if (i < y.size())$/if (i < y.size() \&\& i < 8)/' tests/e2e/saxpy.cpp \
    > "$OUT/demo-wrong-saxpy/saxpy.cpp"
  grep -q 'i < 8' "$OUT/demo-wrong-saxpy/saxpy.cpp"
  clang++-22 $COMMON $SM90 -Itests/e2e "$OUT/demo-wrong-saxpy/saxpy.cpp" \
    -o "$OUT/demo-wrong-saxpy/e2e_saxpy" -L$B/lib -lofld_rt
  rm "$OUT/demo-wrong-saxpy/saxpy.cpp"
fi
rm -f "$OUT"/*.log
strip "$OUT"/e2e_* "$OUT"/multiarch_* "$OUT"/device_math_noopt \
  "$OUT"/kernel_printf_buffered "$OUT"/kernel_printf_small \
  "$OUT"/demo-*/e2e_* 2> /dev/null || true
cp -P $B/lib/libofld_rt.so* "$OUT/"
# CUPTI (CUDA toolkit, 4 MB): device times of profiled launches through
# libomptarget (docs/Profiling.md); without it they are host-timed.
for c in "${CUDA_PATH:-/usr/local/cuda}"/lib64/libcupti.so.[0-9]* \
         "${CUDA_PATH:-/usr/local/cuda}"/extras/CUPTI/lib64/libcupti.so.[0-9]*; do
  [ -e "$c" ] && { cp "$c" "$OUT/"; ln -sf "$(basename "$c")" "$OUT/libcupti.so"; break; }
done
clang-22 -O2 -shared -fPIC tests/gpu/launch-probe.c -o "$OUT/liblaunch-probe.so" -ldl
cp "$LLVM_BIN/FileCheck" "$OUT/tools/FileCheck"
echo "built $(ls "$OUT"/e2e_* "$OUT"/multiarch_* "$OUT"/mpi_* 2>/dev/null | wc -l) programs in $OUT"
