//===- offload/detail/capacity.hpp - does a mapping fit ---------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Not for users. The capacity rule lives in the policy layer
// (offload/policy/capacity.hpp); this name stays for the code that knew it
// as ofld::detail::capacity.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_DETAIL_CAPACITY_HPP
#define OFFLOAD_DETAIL_CAPACITY_HPP

#include "offload/policy/capacity.hpp"

namespace ofld::detail {
namespace capacity = ofld::policy::capacity;
} // namespace ofld::detail

#endif // OFFLOAD_DETAIL_CAPACITY_HPP
