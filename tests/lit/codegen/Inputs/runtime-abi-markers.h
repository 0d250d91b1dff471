// For tests/lit/codegen/runtime-abi.cpp: the marker names of
// offload/runtime_abi.def, one a line, through the C preprocessor.
#define OFLD_ABI_MARKER(Enum, Name) Name
#include "offload/runtime_abi.def"
