#!/usr/bin/env bash
#===- bench/apps/build.sh - build the application benchmarks, stage them -===#
#
# Part of the offload project's benchmark suite.
#
# Configures (if needed) and builds the target bench_apps in BENCH_BUILD_DIR
# (default build-bench, as bench/build.sh), then copies into DEST (default
# .gpu-runtime/apps) the GPU programs (stripped), their device images
# (cubin/), libofld_rt, run.sh and table.awk, so that DEST alone (with
# .gpu-runtime's LLVM runtime) runs on the GPU machine.
#
# Usage, from anywhere:  bench/apps/build.sh [DEST]
#   BENCH_BUILD_DIR=dir  build tree (relative to the project root)
#   JOBS=n               parallel jobs (default 2)
# Then on the GPU machine:
#   source .gpu-runtime/device-env.sh; DEST/run.sh LOGDIR
#===----------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BENCH_BUILD_DIR:-build-bench}
DEST=${1:-.gpu-runtime/apps}

cfg=(-DOFFLOAD_BUILD_BENCH=ON)
[ -e "$BUILD/CMakeCache.txt" ] || cfg+=(-G Ninja -DCMAKE_BUILD_TYPE=Release
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22
  -DOFFLOAD_BUILD_TESTS=OFF)
cmake -S . -B "$BUILD" "${cfg[@]}" >/dev/null
cmake --build "$BUILD" -j"${JOBS:-2}" --target bench_apps

mkdir -p "$DEST"
rm -f "$DEST"/apps_* "$DEST"/libofld_rt.so*
n=0
for exe in "$BUILD"/bench/bin/apps_*; do
  case $exe in *_host) continue ;; esac
  strip -o "$DEST/$(basename "$exe")" "$exe"
  n=$((n + 1))
done
cp -P "$BUILD"/lib/libofld_rt.so* "$DEST/"
# The offload() programs' device images, for SASS on the GPU machine
# (APPS_SASS=1 run.sh), where cuobjdump and nvdisasm are.
rm -rf "$DEST/cubin"
bench/apps/cubins.py "$DEST/cubin" "$DEST"/apps_*_ours*
cp bench/apps/run.sh bench/apps/table.awk "$DEST/"
echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) from" \
  "$(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD -- plugin runtime bench 2>/dev/null || echo ' + local changes')" \
  > "$DEST/PROVENANCE"
echo "apps: staged $n programs in $DEST ($(du -sh "$DEST" | cut -f1))"
echo "apps: on the GPU machine: source .gpu-runtime/device-env.sh; $DEST/run.sh LOGDIR"
