#!/usr/bin/env bash
#===- build-each.sh - compile and link every program of a folder ---------===#
# Usage: build-each.sh OUTDIR SRCDIR COMPILER [FLAGS...]
# Builds SRCDIR/*.cpp into OUTDIR/<name> with COMPILER FLAGS, one line per
# program; a failure prints the compiler's messages. Ends with the count.
set -u
out=$1 src=$2; shift 2
mkdir -p "$out"
n=0 built=0
for f in "$src"/*.cpp; do
  name=$(basename "$f" .cpp)
  n=$((n + 1))
  if "$@" "$f" -o "$out/$name" > "$out/$name.log" 2>&1; then
    built=$((built + 1))
    echo "built $name"
  else
    echo "FAILED $name"
    cat "$out/$name.log"
  fi
done
echo "built $built of $n"
[ "$built" -eq "$n" ]
