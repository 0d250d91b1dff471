#!/bin/sh
#===- offload-clang.sh - run clang 22 in place of the host compiler -------===#
#
# CMake has one C++ compiler per build tree. When it is not clang 22 (GCC, say),
# the build tree's examples, which the plugin must compile, still need clang 22:
# their compile and link rules run through this launcher, which CMake calls as
# `offload-clang.sh <host compiler> <arguments>`. OFFLOAD_CLANGXX names clang 22.
#===----------------------------------------------------------------------===#
shift
exec "${OFFLOAD_CLANGXX:?}" "$@"
