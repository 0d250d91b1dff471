#!/usr/bin/env bash
#===- check-function-size.sh - fail on functions over 100 lines ----------===#
# Long functions hide their steps; this lists every function over 100 lines
# (clang-tidy's readability-function-size) in the given folders (default:
# plugin core rewriter runtime/lib) and exits 1 if there is one. It reads
# build/compile_commands.json, so build first. Slow (about 15 s a file): a
# developer command, not part of scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
CLANG_TIDY=${CLANG_TIDY:-/usr/lib/llvm-22/bin/clang-tidy}
if [ ! -f build/compile_commands.json ]; then
  echo "check-function-size: build/compile_commands.json missing (build first)" >&2
  exit 2
fi
folders=("${@%/}")
[ ${#folders[@]} -gt 0 ] || folders=(plugin core rewriter runtime/lib)
# Offenders in the given folders only (their headers too).
only=$(printf '%s|' "${folders[@]}")
only="^$PWD/(${only%|})/"
mapfile -t files < <(git ls-files "${folders[@]/%//*.cpp}" |
  while read -r f; do
    grep -qF "\"$PWD/$f\"" build/compile_commands.json && echo "$f"
  done)
if [ ${#files[@]} -eq 0 ]; then
  echo "check-function-size: no compiled .cpp files in ${folders[*]}" >&2
  exit 2
fi
config="{Checks: '-*,readability-function-size', CheckOptions: {readability-function-size.LineThreshold: 100}}"
out=$("$CLANG_TIDY" -p build --quiet --config="$config" \
  --header-filter="^$PWD/(plugin|core|rewriter|runtime)/" \
  "${files[@]}" 2>/dev/null | awk '
    /warning: .*readability-function-size/ { w = $0; next }
    w && /note: [0-9]+ lines including/ {
      match($0, /[0-9]+ lines/)
      sub(/ exceeds recommended.*/, "", w)
      print w ": " substr($0, RSTART, RLENGTH); w = ""
    }' | grep -E "$only" | sed "s|^$PWD/||" | sort -u || true)
if [ -n "$out" ]; then
  echo "$out" | sed 's/^/check-function-size: /'
  exit 1
fi
echo "check-function-size: ${#files[@]} files checked, no function over 100 lines"
