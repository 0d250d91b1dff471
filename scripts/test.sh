#!/usr/bin/env bash
#===- test.sh - build offload and run every test --------------------------===#
# Unit tests (Catch2) and the lit suites (IR, diagnostics, end-to-end on the
# host offload target, sm_90 compile-and-link), through CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/check-format.sh
scripts/build.sh -DOFFLOAD_ARCHS=x86_64-pc-linux-gnu
ctest --test-dir build --output-on-failure
