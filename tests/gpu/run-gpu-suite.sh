#!/usr/bin/env bash
#===- run-gpu-suite.sh - the end-to-end programs on a GPU, checked --------===#
#
# Usage (on the GPU machine, from the project root):
#   source .gpu-runtime/device-env.sh
#   tests/gpu/run-gpu-suite.sh DIR [RUN...]
#   tests/gpu/run-gpu-suite.sh --manifest   # anywhere: is suite.txt complete?
# DIR is what tests/gpu/build-gpu-suite.sh built: the sm_90 programs
# (e2e_*), the programs with images for several targets (multiarch_*),
# libofld_rt.so, liblaunch-probe.so and tools/FileCheck. tests/gpu/suite.txt
# says what each run must show; RUN... picks some of its runs (default: all
# of them, and every program of DIR must have one).
#
# Each run executes twice, with offloading mandatory: as is, and with
# libomptarget's log (LIBOMPTARGET_INFO=-1). It passes only if, in both:
#  * it exits 0 (or its line's rc=) within GPU_SUITE_TIMEOUT seconds
#    (default 60);
#  * its stdout passes the CHECK lines of its lit test (FileCheck, and no
#    line with FAIL), and its stderr those of its err= where it has one
#    (the run without the log);
#  * every launch ran on a CUDA device: liblaunch-probe.so records the
#    device of each __tgt_target_kernel call, and a host offload target
#    device ("x86_64-0") fails the run;
# and, in the logged run, the launches libomptarget logs are exactly the
# expected ones, each with its grid and block (in BARE mode, as only a GPU
# runs them), as many as the probe saw. Every expected launch line must name
# the grid and the block; one that does not fails the run (and --manifest). Failures are listed with FileCheck's
# message; the table comes last. GPU_SUITE_WORK keeps the logs (default: a
# temporary folder, removed); GPU_SUITE_FILECHECK, GPU_SUITE_PROBE_LIB and
# GPU_SUITE_MANIFEST name another FileCheck, probe or suite.txt.
#
# --manifest checks, without running anything, that every program of
# tests/e2e has its line and that every FILE:PREFIX named has CHECK lines.
#===----------------------------------------------------------------------===#
set -u
# Paths given relative to where the suite starts; a bare name is a command.
here() { case $1 in /* | '') echo "$1" ;; */*) echo "$PWD/$1" ;; *) echo "$1" ;; esac; }
MANIFEST=$(here "${GPU_SUITE_MANIFEST:-$(dirname "$0")/suite.txt}")
FILECHECK=$(here "${GPU_SUITE_FILECHECK:-}")
PROBE=$(here "${GPU_SUITE_PROBE_LIB:-}")
WORK=$(here "${GPU_SUITE_WORK:-}")
BIN=''
[ -d "${1:-}" ] && BIN=$(cd "$1" && pwd)
cd "$(dirname "$0")/../.."

# unshaped FILE PREFIXES: the first of FILE's launch lines for PREFIXES
# that does not give a grid and a block ("with [X,Y,Z] blocks and [X,Y,Z]
# threads"); a launch checked by name and count alone would pass with any
# shape.
unshaped() {
  local file=$1 prefix
  for prefix in ${2//,/ }; do
    grep -E "(^|[ /#])$prefix(-NEXT|-DAG|-COUNT-[0-9]+)?: " "$file" 2>/dev/null |
      grep -Ev 'with \[[^]]+\] blocks and \[[^]]+\] threads' | head -n 1
  done | head -n 1
}

if [ "${1:-}" = --manifest ]; then
  bad=0 runs=0
  for src in tests/e2e/*.cpp; do
    prog=e2e_$(basename "$src" .cpp)
    grep -q "^$prog " "$MANIFEST" ||
      { echo "FAIL: $src has no line $prog in $MANIFEST"; bad=1; }
  done
  while read -r name rest; do
    case $name in '' | '#'*) continue ;; esac
    runs=$((runs + 1))
    for word in $rest; do
      case $word in
      out=* | launches=* | log=*)
        spec=${word#*=} file=${spec%%:*} prefixes=${spec##*:}
        for prefix in ${prefixes//,/ }; do
          grep -Eq "(^|[ /#])$prefix(-NEXT|-DAG|-COUNT-[0-9]+)?: " "$file" 2>/dev/null ||
            { echo "FAIL: $name: $file has no $prefix: lines"; bad=1; }
        done
        if [ "${word%%=*}" = launches ] && line=$(unshaped "$file" "$prefixes") &&
           [ -n "$line" ]; then
          echo "FAIL: $name: $file:$prefixes checks a launch without its grid and block: $line"
          bad=1
        fi ;;
      esac
    done
  done < "$MANIFEST"
  echo "manifest: $runs runs"
  exit $bad
fi

if [ -z "$BIN" ]; then
  echo "usage: $0 DIR [RUN...] | --manifest" >&2
  exit 2
fi
shift
LIMIT=${GPU_SUITE_TIMEOUT:-60}
PROBE=${PROBE:-$BIN/liblaunch-probe.so}
FILECHECK=${FILECHECK:-$BIN/tools/FileCheck}
export LD_LIBRARY_PATH="$BIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OMP_TARGET_OFFLOAD=MANDATORY
unset LIBOMPTARGET_INFO

if ! "$FILECHECK" --version > /dev/null 2>&1; then
  echo "gpu-suite: FAIL: $FILECHECK does not run here" >&2
  exit 2
fi
if [ ! -f "$PROBE" ]; then
  echo "gpu-suite: FAIL: $PROBE is missing (tests/gpu/build-gpu-suite.sh)" >&2
  exit 2
fi
if [ -n "$WORK" ]; then
  mkdir -p "$WORK"
else
  WORK=$(mktemp -d)
  trap 'rm -rf "$WORK"' EXIT
fi

# The manifest: run name -> the rest of its line.
declare -A SPEC
ORDER=()
while read -r name rest; do
  case $name in '' | '#'*) continue ;; esac
  SPEC[$name]=$rest
  ORDER+=("$name")
done < "$MANIFEST"

RUNS=("$@")
rows=()
pass=0
fail=0
if [ ${#RUNS[@]} -eq 0 ]; then
  RUNS=("${ORDER[@]}")
  # A program without a line would never be checked.
  for exe in "$BIN"/e2e_* "$BIN"/multiarch_*; do
    [ -f "$exe" ] || continue
    prog=$(basename "$exe")
    case $prog in *mpi*) continue ;; esac # tests/gpu/run-mpi.sh runs them
    if [ -z "${SPEC[$prog]+set}" ]; then
      rows+=("$(printf '%-24s FAIL  no line in %s' "$prog" "$MANIFEST")")
      fail=$((fail + 1))
    fi
  done
fi

# check RUN-DIR WHAT FILE:PREFIX INPUT [FileCheck options]: one FileCheck
# of INPUT; a failure is recorded in RUN-DIR/reasons with its message.
check() {
  local dir=$1 what=$2 spec=$3 input=$4
  shift 4
  local file=${spec%%:*} prefix=${spec##*:}
  if ! "$FILECHECK" "$file" --check-prefixes="$prefix" --input-file="$input" \
      --dump-input=never "$@" > "$dir/filecheck.txt" 2>&1; then
    echo "$what does not pass $file:$prefix" >> "$dir/reasons"
    head -n 12 "$dir/filecheck.txt" | sed 's/^/    /' >> "$dir/details"
  fi
}

skipped=0
for name in "${RUNS[@]}"; do
  prog=${name%%/*}
  exe=$BIN/$prog
  # skip=WHERE: a program whose GPU run another script makes (its line says
  # which); it is listed, and counts neither as passed nor as failed.
  case " ${SPEC[$name]-} " in
  *" skip="*)
    why=${SPEC[$name]#*skip=}
    rows+=("$(printf '%-24s SKIP  run by %s' "$name" "${why%% *}")")
    skipped=$((skipped + 1))
    continue
    ;;
  esac
  dir=$WORK/${name//\//.}
  rm -rf "$dir"
  mkdir -p "$dir"
  : > "$dir/reasons"
  : > "$dir/details"
  echo "gpu-suite: $name" >&2 # progress, in case one hangs
  if [ -z "${SPEC[$name]+set}" ]; then
    echo "no line in $MANIFEST" >> "$dir/reasons"
  elif [ ! -x "$exe" ]; then
    echo "$exe was not built" >> "$dir/reasons"
  else
    args=() envs=() out='' launches='' log='' err='' want_rc=0 device=cuda
    for word in ${SPEC[$name]}; do
      case $word in
      args=*) IFS=, read -r -a args <<< "${word#args=}" ;;
      env=*) envs+=("${word#env=}") ;;
      out=*) out=${word#out=} ;;
      launches=*) launches=${word#launches=} ;;
      log=*) log=${word#log=} ;;
      err=*) err=${word#err=} ;;
      rc=*) want_rc=${word#rc=} ;;
      device=*) device=${word#device=} ;;
      *) echo "unknown word '$word' in $MANIFEST" >> "$dir/reasons" ;;
      esac
    done
    [ -n "$out" ] && [ -n "$launches" ] ||
      echo "its line in $MANIFEST needs out= and launches=" >> "$dir/reasons"
    if [ -n "$launches" ] && line=$(unshaped "${launches%%:*}" "${launches##*:}") &&
       [ -n "$line" ]; then
      echo "${launches} checks a launch without its grid and block" >> "$dir/reasons"
      echo "    $line" >> "$dir/details"
    fi
    case $device in
    cuda) where='^CUDA-' ;;
    host) where='^(x86_64|aarch64|ppc64|ppc64le|s390x|riscv64|loongarch64)-' ;;
    *) where='^$' ; echo "unknown device=$device" >> "$dir/reasons" ;;
    esac
    for mode in plain logged; do
      info=()
      [ $mode = logged ] && info=(LIBOMPTARGET_INFO=-1)
      : > "$dir/probe.$mode"
      start=$EPOCHREALTIME
      env "${envs[@]}" "${info[@]}" GPU_SUITE_PROBE_LOG="$dir/probe.$mode" \
        LD_PRELOAD="$PROBE" timeout "$LIMIT" "$exe" "${args[@]}" \
        > "$dir/out.$mode" 2> "$dir/err.$mode"
      rc=$?
      [ $mode = plain ] &&
        ms=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.0f", (b-a)*1000}')
      if [ $rc -eq 124 ]; then
        echo "$mode run timed out after $LIMIT s" >> "$dir/reasons"
      elif [ $rc -ne "$want_rc" ]; then
        echo "$mode run exited with $rc, not $want_rc" >> "$dir/reasons"
        tail -n 5 "$dir/err.$mode" | sed 's/^/    /' >> "$dir/details"
      fi
      [ -n "$out" ] && check "$dir" "$mode stdout" "$out" "$dir/out.$mode" \
        --implicit-check-not=FAIL
      [ -n "$err" ] && [ $mode = plain ] &&
        check "$dir" "stderr" "$err" "$dir/err.$mode"
      # Launches on resident data go straight to a CUDA stream (the runtime's
      # stream-ordered path, runtime/lib/launch/Enqueue.cpp): the probe, which
      # sees what reaches libomptarget, cannot see them; the runtime logs each
      # as "offload device N info: Launching kernel ... (stream-ordered ...)".
      # They are CUDA launches by construction; the logged run counts them.
      seen=$(wc -l < "$dir/probe.$mode")
      [ $mode = plain ] && uid=$(awk 'NR==1{print $3}' "$dir/probe.$mode")
      if other=$(awk '{print $3}' "$dir/probe.$mode" | grep -Ev "$where" | head -n 1) &&
         [ -n "$other" ]; then
        echo "$mode run: a launch ran on $other, not a $device device" >> "$dir/reasons"
      fi
      if [ $mode = logged ]; then
        sed -n 's/.*\(Launching kernel .*\)$/\1/p' "$dir/err.logged" > "$dir/launches"
        logged=$(wc -l < "$dir/launches")
        fast=$(grep -c '(stream-ordered' "$dir/launches")
        nlaunch=$logged
        [ "$logged" -gt 0 ] ||
          echo "$mode run: no launch was logged" >> "$dir/reasons"
        [ $((logged - fast)) -eq "$seen" ] ||
          echo "libomptarget logged $((logged - fast)) launches, the probe saw $seen" >> "$dir/reasons"
        [ -n "$launches" ] && check "$dir" "launches" "$launches" "$dir/launches" \
          --implicit-check-not="Launching kernel"
        [ -n "$log" ] && check "$dir" "log" "$log" "$dir/err.logged"
      fi
    done
  fi
  if [ -s "$dir/reasons" ]; then
    fail=$((fail + 1))
    st=FAIL
    {
      echo "-- $name: FAIL"
      sed 's/^/  /' "$dir/reasons"
      cat "$dir/details"
    } >> "$WORK/failures"
  else
    pass=$((pass + 1))
    st=PASS
  fi
  uid=${uid:-none}
  rows+=("$(printf '%-24s %-5s launches=%-3s %-13s %6s ms  %s' "$name" "$st" \
    "${nlaunch:-0}" "${uid:0:13}" "${ms:-0}" "$(head -n 1 "$dir/reasons")")")
  unset nlaunch uid ms
done

[ -s "$WORK/failures" ] && cat "$WORK/failures"
echo "== GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)"
printf '%s\n' "${rows[@]}"
echo "$pass passed, $fail failed, $skipped run elsewhere"
[ $fail -eq 0 ]
