#!/usr/bin/env bash
#===- rewriter-matrix.sh - offload-rewrite's output on the GPU -----------===#
#
# The GPU half of tests/lit/rewriter/matrix: every end-to-end program and
# example, rewritten by offload-rewrite, built with g++ 12's nvptx offloading
# and with clang 22 for sm_90, run on the GPU next to the plugin's sm_90
# build of the original, outputs compared (timings and device counts masked,
# exit statuses included).
#
#   tests/gpu/rewriter-matrix.sh build <dir>   # here, after scripts/build.sh
#   (device tool) carry [".gpu-runtime", "<dir>"], command:
#   source .gpu-runtime/device-env.sh; <dir>/rewriter-matrix.sh run <dir>
#
# g++ programs run with GCC's libgomp and its CUDA plugin (copied into
# <dir>/gcc), without LLVM's libraries on the path (LLVM ships a libgomp.so.1
# that is its libomp). OFFLOAD_BUILD names the build tree (default build).
#===----------------------------------------------------------------------===#
set -uo pipefail

build() {
  local out=$1 b=${OFFLOAD_BUILD:-build} cuda=${CUDA_PATH:-/usr/local/cuda}
  mkdir -p "$out/bin" "$out/gcc" "$out/src"
  local plugin="-std=c++20 -O2 -fplugin=$b/lib/liboffload.so -fopenmp -nogpulib --offload-arch=sm_90 --cuda-path=$cuda"
  local omp90="-std=c++20 -O2 -fopenmp -nogpulib --offload-arch=sm_90 --cuda-path=$cuda -Xoffload-linker $cuda/nvvm/libdevice/libdevice.10.bc -Iruntime/include -Itests/e2e"
  local gcc="-std=c++20 -O2 -fopenmp -foffload=nvptx-none -foffload-options=nvptx-none=-misa=sm_80 -foffload-options=nvptx-none=-lm -Iruntime/include -Itests/e2e"
  local list=() src name
  # The end-to-end programs of the matrix (tests/lit/rewriter/matrix): the
  # source each test rewrites (%e2e: tests/e2e; %S: the test's folder).
  local e2e=() t
  for t in tests/lit/rewriter/matrix/e2e-*.test; do
    src=$(sed -nE 's#^RUN: %offload-rewrite ([^ ]+) .*#\1#p' "$t" | head -1)
    src=${src/#%e2e\//tests/e2e/}
    src=${src/#%S\//tests/lit/rewriter/matrix/}
    e2e+=("$(realpath -m --relative-to=. "$src")")
  done
  for src in "${e2e[@]}" examples/{babelstream,histogram,jacobi,saxpy}/*.cpp \
             tests/lit/rewriter/Inputs/{portable,stack_copies,struct_spans}.cpp; do
    name=$(basename "$src" .cpp)
    # examples/saxpy and tests/e2e/saxpy.cpp share a name.
    case $src in examples/*) name=example_$name ;; esac
    "$b/bin/offload-rewrite" "$src" -- -std=c++20 > "$out/src/$name.cpp" 2> /dev/null ||
      { echo "$name: offload-rewrite failed"; continue; }
    # The reference: the plugin's build of the original, or (where the
    # plugin cannot link it) the original's CPU fallback, run here.
    if clang++-22 $plugin "$src" -o "$out/bin/$name.plugin" -L"$b/lib" -lofld_rt 2> /dev/null; then
      :
    else
      clang++-22 -std=c++20 -O2 -Iruntime/include -DOFFLOAD_QUIET_CPU_FALLBACK \
        -include offload/offload.hpp "$src" -o "$out/cpu" &&
        { "$out/cpu" $(args "$name"); echo "status=$?"; } > "$out/bin/$name.expected"
      rm -f "$out/cpu"
    fi
    g++-12 $gcc "$out/src/$name.cpp" -o "$out/bin/$name.gcc" 2> "$out/$name.log" ||
      { echo "$name: g++ failed"; cat "$out/$name.log"; }
    clang++-22 $omp90 "$out/src/$name.cpp" -o "$out/bin/$name.clang" 2>> "$out/$name.log" ||
      { echo "$name: clang failed"; cat "$out/$name.log"; }
    rm -f "$out/$name.log"
    list+=("$name")
  done
  # A mapping larger than the GPU (tests/lit/rewriter/out-of-memory.test),
  # without a handler (oom) and with one (oom_handler): the named message.
  src=tests/lit/rewriter/Inputs/oom.cpp
  "$b/bin/offload-rewrite" "$src" -- -std=c++20 > "$out/src/oom.cpp" 2> /dev/null &&
    clang++-22 $plugin "$src" -o "$out/bin/oom.plugin" -L"$b/lib" -lofld_rt &&
    g++-12 $gcc "$out/src/oom.cpp" -o "$out/bin/oom.gcc" 2> /dev/null &&
    clang++-22 $omp90 "$out/src/oom.cpp" -o "$out/bin/oom.clang" &&
    for k in plugin gcc clang; do ln "$out/bin/oom.$k" "$out/bin/oom_handler.$k"; done &&
    list+=(oom oom_handler)
  strip "$out"/bin/*.plugin "$out"/bin/*.gcc "$out"/bin/*.clang 2> /dev/null
  rm -rf "$out/src"
  cp -P "$b"/lib/libofld_rt.so* "$out/bin/"
  cp "$(g++-12 -print-file-name=libgomp.so.1)" "$out/gcc/"
  cp /usr/lib/x86_64-linux-gnu/libgomp-plugin-nvptx.so.1 "$out/gcc/"
  cp tests/lit/rewriter/matrix/Inputs/normalize.sed "$0" "$out/"
  # The OpenMP runtimes' own lines about a failed allocation (the trial of
  # a mapping the device cannot hold) differ between runtimes.
  cat >> "$out/normalize.sed" <<'EOF'
/^"PluginInterface" error: Failure to allocate device memory/d
/^$/{N;/^\nlibgomp: .*out of memory$/d;}
/^libgomp: .*out of memory/d
EOF
  printf '%s\n' "${list[@]}" > "$out/programs"
  # The programs carry their GPU images as text (PTX): packed, 30 times
  # smaller, for the carried tree's budget.
  tar cJf "$out/bin.tar.xz" -C "$out" bin && rm -rf "$out/bin"
  du -sh "$out"
}

args() {
  case $1 in
    example_babelstream) echo 100000 3 ;;
    example_histogram) echo 1000000 ;;
    example_jacobi) echo 256 200 ;;
    oom) echo 200 ;;
    # The device filled, 256 MiB through every path (tests/e2e).
    out_of_memory) echo fill handler ;;
    oom_handler) echo 200 handler ;;
    stack_copies) echo handler ;;
  esac
}

# What g++'s NVPTX build prints where it differs from the plugin's by
# design: it refuses the launch whose by-value copies its stack per warp
# cannot hold (tests/lit/rewriter/stack-copies.test).
gcc_reference() {
  case $1 in
    stack_copies)
      sed -E "s|^60 KiB: 0 wrong$|handled: offload: kernel 'scribble<60>' at tests/lit/rewriter/Inputs/stack_copies.cpp:61: its by-value parameters that it modifies take 61440 bytes, which each kernel thread copies onto the stack; g++'s OpenMP runtime leaves them 36576 of the 131072 bytes per warp on device 0: pass the object in a std::span\n60 KiB: not run|" ;;
    *) cat ;;
  esac
}

# What is compared of a program's output: all of it, but for kernel_assert,
# whose child's message names the program and spells the kernel's
# parameter types as each build does: its own verdict (the message names
# the original file and line, once) and the exit status; and kernel_printf,
# whose threads' lines come in the device's order: its lines sorted (as its
# own check compares them).
verdict() {
  case $1 in
    kernel_assert) tail -2 ;;
    kernel_printf) sort ;;
    *) cat ;;
  esac
}

run() {
  local dir name ref got raw moved gcc_rc clang_rc
  dir=$(realpath "$1")
  local unpacked=/tmp/rewriter-matrix
  rm -rf "$unpacked" && mkdir -p "$unpacked" && tar xJf "$dir/bin.tar.xz" -C "$unpacked"
  local bin=$unpacked/bin
  local llvm_path=$bin:${LD_LIBRARY_PATH:-}
  export OMP_TARGET_OFFLOAD=MANDATORY CUDA_MODULE_LOADING=EAGER
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
  printf '%-20s %-14s %-10s %s\n' program g++-nvptx clang-sm90 note
  while read -r name; do
    local a; a=$(args "$name")
    if [ -x "$bin/$name.plugin" ]; then
      ref=$({ LD_LIBRARY_PATH=$llvm_path timeout 60 "$bin/$name.plugin" $a; echo "status=$?"; } 2>&1 | sed -E -f "$dir/normalize.sed")
    else
      ref=$(sed -E -f "$dir/normalize.sed" "$bin/$name.expected")
    fi
    raw=$({ LD_LIBRARY_PATH=$dir/gcc timeout 60 "$bin/$name.gcc" $a; echo "status=$?"; } 2>&1)
    got=$(echo "$raw" | sed -E -f "$dir/normalize.sed" | verdict "$name")
    ref=$(echo "$ref" | verdict "$name")
    local gref; gref=$(echo "$ref" | gcc_reference "$name")
    if [ ! -x "$bin/$name.gcc" ]; then gcc_rc="not built"
    elif [ "$got" = "$gref" ]; then gcc_rc=same; else gcc_rc=DIFFERS; echo "--- $name g++ (< plugin, > rewrite):"; diff <(echo "$gref") <(echo "$got") | head -12; fi
    # Launches of kernels that synchronise blocks larger than g++'s teams
    # hold run on the host (one note per call site).
    moved=$(echo "$raw" | grep -c ": note: runs on the host: ")
    [ "$moved" -gt 0 ] && { gcc_rc="$gcc_rc,$moved@host"; echo "$raw" | grep ": note: runs on the host: "; }
    got=$({ LD_LIBRARY_PATH=$llvm_path timeout 60 "$bin/$name.clang" $a; echo "status=$?"; } 2>&1 | sed -E -f "$dir/normalize.sed" | verdict "$name")
    if [ "$got" = "$ref" ]; then clang_rc=same; else clang_rc=DIFFERS; echo "--- $name clang (< plugin, > rewrite):"; diff <(echo "$ref") <(echo "$got") | head -12; fi
    printf '%-20s %-14s %-10s %s\n' "$name" "$gcc_rc" "$clang_rc" "$(echo "$ref" | tail -2 | head -1 | cut -c1-60)"
  done < "$dir/programs"
}

case ${1:-} in
  build) cd "$(dirname "$0")/../.." && build "$(realpath -m "${2:?output dir}")" ;;
  run) run "${2:?dir}" ;;
  *) echo "usage: $0 build <dir> | run <dir>"; exit 2 ;;
esac
