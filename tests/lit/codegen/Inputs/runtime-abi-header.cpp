//===- runtime-abi-header.cpp - offload/runtime.h, lowered by clang -------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// For tests/lit/codegen/runtime-abi.cpp: what the runtime's C header
// declares, as clang lowers it to IR (no plugin): a declaration of every
// runtime function (their addresses are taken), the call-site record's
// type, the launch modes and the dims layout.
//
//===----------------------------------------------------------------------===//

#include "offload/runtime.h"

void *Functions[] = {
#define OFLD_ABI_FUNCTION(Name, ReturnType, ...)                               \
  reinterpret_cast<void *>(&Name),
#include "offload/runtime_abi.def"
};
__ofld_site Site;
int NumDims = __ofld_num_dims;
int ModeSkip = __ofld_mode_skip;
int ModeAsync = __ofld_mode_async;
