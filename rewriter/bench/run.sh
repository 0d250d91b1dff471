#!/usr/bin/env bash
#===- run.sh - rewritten code against the plugin, on the host target -----===#
#
# Builds many_launches.cpp with the plugin and, rewritten by offload-rewrite,
# with stock clang 22, both for the host offload target, and compares them:
# the best of N alternating runs (wall clock), and, where valgrind is
# installed, the instructions one launch executes (the difference between
# two launch counts; exact, whatever else the machine runs).
#   rewriter/bench/run.sh [build dir] [runs]
#===----------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${1:-build}
N=${2:-7}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
LLVM=/usr/lib/llvm-22/lib
export OMP_TARGET_OFFLOAD=MANDATORY
clang++-22 -std=c++20 -O2 -fplugin="$B/lib/liboffload.so" -fopenmp -nogpulib \
  -fopenmp-targets=x86_64-pc-linux-gnu rewriter/bench/many_launches.cpp \
  -o "$T/plugin" -L"$B/lib" -lofld_rt -Wl,-rpath,"$B/lib" -Wl,-rpath,$LLVM
"$B/bin/offload-rewrite" rewriter/bench/many_launches.cpp -- -std=c++20 \
  > "$T/rewritten.cpp" 2> /dev/null
clang++-22 -std=c++20 -O2 -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu \
  -Iruntime/include "$T/rewritten.cpp" -o "$T/rewritten" -Wl,-rpath,$LLVM

for prog in plugin rewritten; do : > "$T/$prog.times"; done
for ((i = 0; i < N; ++i)); do
  for prog in plugin rewritten; do
    "$T/$prog" 20000 | sed -E 's/.*: ([0-9.]+) us each; .*: ([0-9.]+) us each.*/\1 \2/' \
      >> "$T/$prog.times"
  done
done
printf '%-10s %14s %14s\n' build copying resident
for prog in plugin rewritten; do
  c=$(cut -d' ' -f1 "$T/$prog.times" | sort -g | head -1)
  r=$(cut -d' ' -f2 "$T/$prog.times" | sort -g | head -1)
  printf '%-10s %11s us %11s us\n' "$prog" "$c" "$r"
done
if command -v valgrind > /dev/null; then
  for prog in plugin rewritten; do
    for n in 200 1200; do
      valgrind --tool=callgrind --callgrind-out-file="$T/cg" "$T/$prog" $n \
        2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p' > "$T/$prog.$n"
    done
    echo "$prog: $(( ($(cat "$T/$prog.1200") - $(cat "$T/$prog.200")) / 1000 )) instructions per pair of launches (one copying, one resident)"
  done
fi
