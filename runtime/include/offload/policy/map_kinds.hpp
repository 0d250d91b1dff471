//===- offload/policy/map_kinds.hpp - the map-type bits ---------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The map-type bits of libomptarget that libofld_rt, ofld::region and the
// OpenMP bridge test and set, as C++ constants expanded from the ABI table
// (offload/runtime_abi.def), which the plugin checks against LLVM's own
// values at compile time: no file spells a bit's value by hand.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_POLICY_MAP_KINDS_HPP
#define OFFLOAD_POLICY_MAP_KINDS_HPP

#include <cstdint>

namespace ofld::policy {

#define OFLD_ABI_MAP_BIT(Enum, Name, Value, OMPName)                           \
  inline constexpr std::int64_t Map##Enum = Value;
#include "offload/runtime_abi.def"

/// The bits that move data: what a range's transfer is made of.
inline constexpr std::int64_t MapTransfer = MapTo | MapFrom;
inline constexpr std::int64_t MapToFrom = MapTo | MapFrom;

} // namespace ofld::policy

#endif // OFFLOAD_POLICY_MAP_KINDS_HPP
