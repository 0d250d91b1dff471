#!/usr/bin/env bash
#===- check-format.sh - fail on C++ files clang-format would change -------===#
# The tree follows .clang-format (LLVM style); .clang-format-ignore lists the
# tests whose line layout is their expectation. Run with --fix to format.
set -euo pipefail
cd "$(dirname "$0")/.."
CLANG_FORMAT=${CLANG_FORMAT:-$(command -v clang-format-22 || command -v clang-format || true)}
if [ -z "$CLANG_FORMAT" ]; then
  echo "check-format: clang-format-22 not found (scripts/install-deps.sh installs it)" >&2
  exit 2
fi
mapfile -t files < <(git ls-files '*.cpp' '*.h' '*.hpp' '*.c' '*.cu' '*.cuh')
if [ "${1:-}" = --fix ]; then
  exec "$CLANG_FORMAT" -i "${files[@]}"
fi
if ! "$CLANG_FORMAT" --dry-run -Werror "${files[@]}" 2>/tmp/check-format.$$; then
  grep -E '^[^ ].*: (error|warning):' /tmp/check-format.$$ | cut -d: -f1 | sort -u |
    sed 's/^/check-format: not formatted: /' >&2
  rm -f /tmp/check-format.$$
  echo "check-format: run scripts/check-format.sh --fix" >&2
  exit 1
fi
rm -f /tmp/check-format.$$
echo "check-format: ${#files[@]} files checked"
