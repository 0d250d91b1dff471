//===- LaunchBound.h - bounds as a call site computes them ------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The default launch shape is one thread per index the kernel's own bounds
// check admits (`if (i < v.size())`: v.size() threads). The check is read
// from the AST (BoundAnalysis.h) into the terms below, which name only what
// a call site has: constants, the kernel's integer arguments (or integer
// fields of them) and its spans' element counts. The plugin turns them into
// IR (the kernel's extent function), offload-rewrite into C++ text; both hand
// the numbers to ofld::detail::default_dims (offload/launch.hpp). Depends on
// LLVM Support only, like the descriptor that carries it.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CORE_LAUNCHBOUND_H
#define OFFLOAD_CORE_LAUNCHBOUND_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace offload {

/// One term of a bound, in prefix order: an operator's two operands follow
/// it. Arithmetic is signed 64-bit; a division by zero is 0.
struct BoundTerm {
  enum Kind : uint8_t {
    Const, ///< Constant
    Value, ///< the integer at byte Offset of argument Param (Field: `.n`)
    Count, ///< the element count of span argument Param
    Add,
    Sub,
    Mul,
    Div,
    Min,
    Max,
  };
  Kind Op = Const;
  int64_t Constant = 0;
  unsigned Param = 0;
  uint64_t Offset = 0;
  uint8_t Bytes = 0;
  bool Signed = false;
  std::string Field; ///< Value of a member: its path as C++ spells it

  bool operator==(const BoundTerm &) const = default;
};

/// What the kernel's bounds check says about ofld::global_id(d).
struct DimBound {
  enum State : uint8_t {
    Unindexed, ///< the kernel never reads this dimension's thread index
    Bounded,   ///< Terms: how many indices the check admits
    Unknown,   ///< it reads it, but not under a bound a call site can compute
  };
  State S = Unindexed;
  llvm::SmallVector<BoundTerm, 4> Terms;

  bool operator==(const DimBound &) const = default;
};

/// The three dimensions of a kernel.
struct LaunchBound {
  DimBound Dims[3];
  /// Whether the kernel reads any thread index at all.
  bool readsIndex() const;
  /// Whether some dimension is read without a bound.
  bool lacksBound() const;
  bool operator==(const LaunchBound &) const = default;
};

/// The descriptor's text for a bound (`n0|-|-`), and back.
std::string encodeBound(const LaunchBound &B);
llvm::Expected<LaunchBound> decodeBound(llvm::StringRef S);

/// How renderExtent spells a bound.
enum class BoundStyle {
  Code,  ///< a C++ expression of type long long (offload-rewrite's output)
  Words, ///< for people: `v.size()`, `n * m`
};

/// Dimension `D`'s extent, `Param[i]` spelling argument i: with
/// BoundStyle::Code an expression that ofld::detail::default_dims takes
/// (extent_unindexed and extent_unknown included).
std::string renderExtent(const DimBound &D, llvm::ArrayRef<std::string> Param,
                         BoundStyle Style);

/// The whole default shape in words, for --explain: `one thread per
/// v.size()`, `one thread per (cols, rows)`, `one thread` for a kernel that
/// reads no thread index.
std::string describeBound(const LaunchBound &B,
                          llvm::ArrayRef<std::string> Param);

} // namespace offload

#endif // OFFLOAD_CORE_LAUNCHBOUND_H
