#!/usr/bin/env bash
#===- demo.sh - build offload and run the saxpy example --------------------===#
# Installs what is missing, builds the plugin, compiles examples/saxpy with it
# and runs it: on the NVIDIA GPU when one is present (sm_90), otherwise on the
# host offload target.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  archs=sm_90
else
  archs=x86_64-pc-linux-gnu
fi
scripts/build.sh -DOFFLOAD_ARCHS="$archs"
echo "== running examples/saxpy (offload target: $archs)"
LD_LIBRARY_PATH=/usr/lib/llvm-22/lib OMP_TARGET_OFFLOAD=MANDATORY ./build/examples/saxpy/saxpy
