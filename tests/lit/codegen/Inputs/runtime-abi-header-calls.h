// For tests/lit/codegen/runtime-abi.cpp: the runtime functions the user
// headers call, as offload/runtime_abi.def lists them, one a line, through
// the C preprocessor.
#define OFLD_ABI_HEADER_FUNCTION(Name, ReturnType, ...) Name
#include "offload/runtime_abi.def"
