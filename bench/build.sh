#!/usr/bin/env bash
#===- bench/build.sh - build the benchmark suite and stage it for the GPU -===#
#
# Part of the offload project's benchmark suite.
#
# Configures (if needed) and builds the suite in BENCH_BUILD_DIR (default
# build-bench), then copies the GPU programs and libofld_rt into DEST
# (default .gpu-runtime/bench), next to the staged LLVM 22 runtime
# (../shared/gpu/stage.sh, run here if .gpu-runtime has none yet).
#
# Usage, from anywhere:  bench/build.sh [DEST]
#   BENCH_BUILD_DIR=dir  build tree (relative to the project root)
#   JOBS=n               parallel jobs (default 2)
# Then on the GPU machine (carry [".gpu-runtime"]):
#   source .gpu-runtime/device-env.sh; bench/run.sh bench-logs
#===----------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BENCH_BUILD_DIR:-build-bench}
DEST=${1:-.gpu-runtime/bench}
[ -e .gpu-runtime/device-env.sh ] || ../shared/gpu/stage.sh .gpu-runtime

cfg=(-DOFFLOAD_BUILD_BENCH=ON)
# A fresh tree needs no tests; an existing one keeps its own choice.
[ -e "$BUILD/CMakeCache.txt" ] || cfg+=(-G Ninja -DCMAKE_BUILD_TYPE=Release
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22
  -DOFFLOAD_BUILD_TESTS=OFF)
cmake -S . -B "$BUILD" "${cfg[@]}" >/dev/null
# Keep going past a program that fails to build: the others still get staged
# (bench/run.sh reports the missing ones), and the exit status says so.
keep=(-k)
grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja' "$BUILD/CMakeCache.txt" && keep=(-k 0)
log=$BUILD/bench-build.log
set +e
cmake --build "$BUILD" -j"${JOBS:-2}" --target bench -- "${keep[@]}" 2>&1 | tee "$log"
built=$((PIPESTATUS[0] == 0))
set -e

mkdir -p "$DEST"
rm -f "$DEST"/*
n=0
for exe in "$BUILD"/bench/bin/*; do
  case $(basename "$exe") in *_host) continue ;; esac
  # A program whose last build failed may still be there from an older one.
  if grep -q "^FAILED: .*bench/bin/$(basename "$exe")\$" "$log"; then
    echo "bench: not staged (its build failed): $(basename "$exe")" >&2
    continue
  fi
  cp "$exe" "$DEST/"
  n=$((n + 1))
done
cp -P "$BUILD"/lib/libofld_rt.so* "$DEST/"
# What was built, for the table's header on the GPU machine.
{
  echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) in $BUILD from" \
       "$(git rev-parse --short HEAD 2>/dev/null || echo '?')" \
       "$(git diff --quiet HEAD -- plugin runtime 2>/dev/null || echo '+ local changes to plugin/runtime')"
} > "$DEST/PROVENANCE"
echo "bench: staged $n GPU programs and libofld_rt in $DEST ($(du -sh "$DEST" | cut -f1);" \
     ".gpu-runtime in all: $(du -sh .gpu-runtime | cut -f1))"
echo "bench: on the GPU machine (carry [\".gpu-runtime\"]):" \
     "source .gpu-runtime/device-env.sh; bench/run.sh bench-logs"
if [ $built -eq 0 ]; then
  echo "bench: some programs FAILED to build (see $log); the others are staged" >&2
  exit 1
fi
