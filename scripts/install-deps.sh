#!/usr/bin/env bash
#===- install-deps.sh - Debian packages the build and tests need ----------===#
set -euo pipefail
PKGS="clang-22 libclang-22-dev llvm-22-dev llvm-22-tools liboffload-22-dev libomp-22-dev lld-22 clangd-22 clang-format-22 catch2 cmake ninja-build libopenmpi-dev openmpi-bin rocm-device-libs"
# offload-rewrite's output is built with these too (tests/lit/rewriter): g++ 12
# with its nvptx offloading (libgomp's CUDA plugin runs it in the GPU suite)
# and clang 19.
PKGS="$PKGS g++-12 gcc-12-offload-nvptx libgomp-plugin-nvptx1 clang-19"
missing=$(for p in $PKGS; do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done)
if [ -n "$missing" ]; then
  SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
fi
