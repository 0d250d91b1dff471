#!/bin/sh
# Rewrites each source given after `--` with the rewriter $1, into $2, then
# runs --check on that output, which must exit 0: a second rewrite would
# change nothing (idempotent.test diffs second rewrites byte for byte).
# Prints one line per source ("same" or what went wrong); the flags for the
# compiles are $3. Exits 1 if any source failed.
rw=$1 out=$2 flags=$3
shift 4
status=0
for src in "$@"; do
  b=$(basename "$src" .cpp)
  if ! $rw "$src" -- $flags > "$out/$b.1.cpp" 2> "$out/$b.1.err"; then
    echo "$b: the first rewrite failed"; status=1; continue
  fi
  $rw --check "$out/$b.1.cpp" -- $flags > /dev/null 2> "$out/$b.c.err"
  rc=$?
  if [ $rc != 0 ]; then
    echo "$b: --check on the output exits $rc"; status=1; continue
  fi
  echo "$b: same"
done
exit $status
