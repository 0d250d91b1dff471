//===- offload/runtime.h - the host runtime's entry points ------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Called by the code the plugin emits, not by users. Every declaration here
// (and in offload/abi.hpp, which declares the functions the user headers
// call) is an expansion of offload/runtime_abi.def, the one table of the ABI
// between the plugin and the runtime (the plugin expands the same table in
// plugin/CodeGen/RuntimeABI.h); what each function does is documented there.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_RUNTIME_H
#define OFFLOAD_RUNTIME_H

#include "offload/abi.hpp"

#include <cstdint>

/// Where a launch comes from, for messages.
struct __ofld_site {
#define OFLD_ABI_SITE_FIELD(Enum, Name, Type) __ofld_abi_##Type Name;
#include "offload/runtime_abi.def"
};

enum : std::uint32_t {
#define OFLD_ABI_SITE_FLAG(Enum, Name, Value) Name = Value,
#include "offload/runtime_abi.def"
};
enum : std::int32_t {
#define OFLD_ABI_LAUNCH_MODE(Enum, Name, Value) Name = Value,
#include "offload/runtime_abi.def"
};
enum : std::int64_t {
#define OFLD_ABI_MAP_BIT(Enum, Name, Value, OMPName) Name = Value,
#include "offload/runtime_abi.def"
};

extern "C" {
#define OFLD_ABI_VARIABLE(Enum, Name, CType) extern CType Name;
#define OFLD_ABI_PARAM(Type, Name) __ofld_abi_##Type Name
#define OFLD_ABI_FUNCTION(Name, ReturnType, ...)                               \
  __ofld_abi_##ReturnType Name(__VA_ARGS__);
#include "offload/runtime_abi.def"
}

#endif // OFFLOAD_RUNTIME_H
