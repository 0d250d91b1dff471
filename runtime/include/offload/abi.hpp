//===- offload/abi.hpp - the ABI table's C types, header calls --*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Not for users. The C spelling of the ABI table's types
// (offload/runtime_abi.def, `__ofld_abi_<Token>`), its constants and the
// declarations of the runtime functions that the user headers call, expanded
// from the table: libofld_rt and offload-rewrite's bridge define them, and a
// definition that differs from its row does not compile. offload/runtime.h
// adds the functions the plugin's code calls.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_ABI_HPP
#define OFFLOAD_ABI_HPP

#include <cstddef>
#include <cstdint>

namespace ofld {
struct launch;
namespace detail {
struct region_entry;
struct cpu_grid_state;
struct cpu_access;
} // namespace detail
} // namespace ofld

struct __ofld_site;
struct __ofld_map_plan;
struct __ofld_place;
/// A device's properties as the runtimes report them (runtime_abi.def's
/// __ofld_device_properties): fixed-size, no C++ types. 0 where unknown.
/// Here, not in properties.hpp: the runtimes and the bridge fill it without
/// the C++ record (and its <string>).
struct __ofld_device_info {
  char name[256];
  char arch[64];
  std::int64_t multiprocessors;
  std::int64_t global_memory, free_memory;
  std::int64_t max_threads_per_block;
  std::int64_t max_grid[3], max_block[3];
  std::int64_t shared_memory_per_block;
  std::int64_t warp_size;
  std::int64_t clock_khz;
};
/// The outlined launch: `Body(Objects, Dims, Device)`.
typedef void (*__ofld_launch_body)(void **, uint32_t *, int64_t);

#define OFLD_ABI_TYPE(Token, CType, IRType) typedef CType __ofld_abi_##Token;
#include "offload/runtime_abi.def"

// The numbers both sides use (the CPU grid reads the dims layout, too).
enum : int {
#define OFLD_ABI_CONSTANT(Enum, Name, Value) Name = Value,
#include "offload/runtime_abi.def"
};

extern "C" {
#define OFLD_ABI_PARAM(Type, Name) __ofld_abi_##Type Name
#define OFLD_ABI_HEADER_FUNCTION(Name, ReturnType, ...)                        \
  __ofld_abi_##ReturnType Name(__VA_ARGS__);
#include "offload/runtime_abi.def"
}

#endif // OFFLOAD_ABI_HPP
