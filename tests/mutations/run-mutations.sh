#!/usr/bin/env bash
#===- run-mutations.sh - plant each bug of tests/mutations, see it caught -===#
#
# Usage, from anywhere in the project:
#   tests/mutations/run-mutations.sh [--full] [PATCH...]
# Copies the working tree (tracked and untracked, not ignored files) to
# $MUTATION_DIR/src (default build-mutations/src, git-ignored), builds it
# there once, checks that the named tests pass on it, then for each patch
# (default: every tests/mutations/*.patch): applies it, rebuilds
# incrementally, runs the tests its `Tests:` line names, and reverts it. A
# mutation is caught when one of them fails. --full also runs the whole
# suite (lit and unit tests) on each mutation and counts what fails there.
# Later runs reuse the copy and its build: only what changed is copied and
# rebuilt. Prints a Markdown table; exits non-zero unless every mutation was
# caught. JOBS (default 2) is the build's parallelism, MUTATION_CMAKE_ARGS
# extra configure arguments, MUTATION_TEST_TIMEOUT (default 900) the limit
# in seconds on the tests of one mutation.
#
# A patch is a unified diff after a few header lines:
#   Mutation: what the planted bug does
#   Area: the part of the project it is in
#   Tests: lit tests (paths under tests/lit) or `unit` that must catch it
#   Depends: (optional) why no test is named yet
#===----------------------------------------------------------------------===#
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${MUTATION_DIR:-$ROOT/build-mutations}
SRC=$DIR/src
BUILD=$DIR/build
LOGS=$DIR/logs
JOBS=${JOBS:-2}
LIMIT=${MUTATION_TEST_TIMEOUT:-900}
LIT=${LIT:-$(command -v lit || echo /usr/lib/llvm-22/bin/lit)}
FULL=0
if [ "${1:-}" = --full ]; then
  FULL=1
  shift
fi
PATCHES=()
for p in "$@"; do PATCHES+=("$(realpath "$p")"); done
[ ${#PATCHES[@]} -gt 0 ] || PATCHES=("$ROOT"/tests/mutations/*.patch)
mkdir -p "$SRC" "$LOGS"

# git apply in the copy, which lies inside the project's own repository.
apply() { GIT_CEILING_DIRECTORIES=$DIR git -C "$SRC" apply "$@"; }
field() { sed -n "s/^$2: *//p;/^diff /q" "$1" | head -n 1; }
log() { echo "mutations: $*" >&2; }

# The copy: only files whose contents differ are written, so that the build
# there stays incremental.
log "syncing $ROOT -> $SRC"
(cd "$ROOT" && git ls-files -co --exclude-standard) | sort > "$DIR/files"
while IFS= read -r f; do
  [ -f "$ROOT/$f" ] || continue
  if ! cmp -s "$ROOT/$f" "$SRC/$f"; then
    mkdir -p "$(dirname "$SRC/$f")"
    cp "$ROOT/$f" "$SRC/$f"
  fi
done < "$DIR/files"
(cd "$SRC" && find . -type f | sed 's|^\./||' | sort) |
  comm -23 - "$DIR/files" | while IFS= read -r f; do rm -f "$SRC/$f"; done

if [ ! -f "$BUILD/build.ninja" ]; then
  log "configuring $BUILD"
  cmake -S "$SRC" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DOFFLOAD_ARCHS=x86_64-pc-linux-gnu ${MUTATION_CMAKE_ARGS:-} \
    > "$LOGS/configure.log" 2>&1 || { cat "$LOGS/configure.log"; exit 2; }
fi

build() { cmake --build "$BUILD" -j "$JOBS" > "$1" 2>&1; }

# run_tests LOG TEST...: runs lit tests (and `unit`), prints the failing ones.
run_tests() {
  local log=$1
  shift
  local lits=() failed=()
  : > "$log"
  for t in "$@"; do
    if [ "$t" = unit ]; then
      for u in offload-unit-tests offload-staging-tests; do
        timeout "$LIMIT" "$BUILD/tests/unit/$u" >> "$log" 2>&1 || failed+=("unit:$u")
      done
    elif [ -e "$SRC/tests/lit/$t" ]; then
      lits+=("$BUILD/tests/lit/$t")
    fi
  done
  if [ ${#lits[@]} -gt 0 ]; then
    timeout "$LIMIT" "$LIT" -q "${lits[@]}" >> "$log" 2>&1
    local rc=$?
    [ $rc -eq 124 ] && failed+=("(timed out)")
    while IFS= read -r t; do failed+=("$t"); done < <(
      sed -n 's/^ *offload :: \([^ ]*\).*/\1/p' "$log" | sort -u)
    [ $rc -ne 0 ] && [ ${#failed[@]} -eq 0 ] && failed+=("(lit exited with $rc)")
  fi
  echo "${failed[*]}"
}

# run_all LOG: the whole suite; prints "N failed".
run_all() {
  local failed
  failed=$(run_tests "$1" unit)
  timeout "$LIMIT" "$LIT" -q "$BUILD/tests/lit" >> "$1" 2>&1
  local n
  n=$(sed -n 's/^ *offload :: \([^ ]*\).*/\1/p' "$1" | sort -u | wc -l)
  n=$((n + $(wc -w <<< "$failed")))
  echo "$n failed"
}

# The baseline: the copy must build and pass every named test.
log "building the unmutated copy"
build "$LOGS/baseline.build.log" || { tail -n 30 "$LOGS/baseline.build.log"; exit 2; }
ALL_TESTS=()
for p in "${PATCHES[@]}"; do
  for t in $(field "$p" Tests); do ALL_TESTS+=("$t"); done
done
mapfile -t ALL_TESTS < <(printf '%s\n' "${ALL_TESTS[@]}" | sort -u)
# Tests a patch names that this tree does not have yet (Depends:).
MISSING=()
for t in "${ALL_TESTS[@]}"; do
  [ "$t" = unit ] || [ -e "$SRC/tests/lit/$t" ] || MISSING+=("$t")
done
[ ${#MISSING[@]} -eq 0 ] || log "not in this tree: ${MISSING[*]}"
log "baseline: ${ALL_TESTS[*]}"
bad=$(run_tests "$LOGS/baseline.tests.log" "${ALL_TESTS[@]}")
if [ -n "$bad" ]; then
  echo "mutations: the unmutated copy fails $bad (see $LOGS/baseline.tests.log)" >&2
  exit 2
fi
if [ $FULL = 1 ]; then
  BASE_FULL=$(run_all "$LOGS/baseline.full.log")
  log "baseline, whole suite: $BASE_FULL"
fi

rows=()
missed=0
for p in "${PATCHES[@]}"; do
  id=$(basename "$p" .patch)
  what=$(field "$p" Mutation)
  area=$(field "$p" Area)
  tests=$(field "$p" Tests)
  depends=$(field "$p" Depends)
  full=''
  log "$id"
  if ! apply --check "$p" > "$LOGS/$id.apply.log" 2>&1; then
    result="**stale**: the patch does not apply"
    missed=$((missed + 1))
  else
    apply "$p"
    if ! build "$LOGS/$id.build.log"; then
      result="**does not build** (a mutation must compile)"
      missed=$((missed + 1))
    else
      caught=''
      # shellcheck disable=SC2086
      [ -n "$tests" ] && caught=$(run_tests "$LOGS/$id.tests.log" $tests)
      absent=''
      for t in $tests; do
        [ "$t" = unit ] || [ -e "$SRC/tests/lit/$t" ] || absent+=" $t"
      done
      if [ -n "$caught" ]; then
        result="caught by ${caught// /, }"
      elif [ -n "$absent" ] || [ -z "$tests" ]; then
        result="**not caught**: no test here${absent:+ (missing:$absent)}${depends:+; depends on $depends}"
        missed=$((missed + 1))
      else
        result="**not caught** by $tests"
        missed=$((missed + 1))
      fi
      [ $FULL = 1 ] && full=" | $(run_all "$LOGS/$id.full.log")"
    fi
    apply -R "$p"
  fi
  rows+=("| $id | $area | $what | $result$full |")
done

echo
if [ $FULL = 1 ]; then
  echo "| mutation | area | planted bug | named tests | whole suite (baseline: $BASE_FULL) |"
  echo "|---|---|---|---|---|"
else
  echo "| mutation | area | planted bug | named tests |"
  echo "|---|---|---|---|"
fi
printf '%s\n' "${rows[@]}"
echo
echo "$(( ${#PATCHES[@]} - missed )) of ${#PATCHES[@]} mutations caught"
[ $missed -eq 0 ]
