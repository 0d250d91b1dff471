//===- TransferRules.h - C++ parameter type -> data movement ----*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The one table that decides, from a kernel parameter's C++ type, what moves
// between host and device and how many bytes. The plugin's lowering and the
// offload-rewrite tool both ask this file; nothing else knows the rules.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CORE_TRANSFERRULES_H
#define OFFLOAD_CORE_TRANSFERRULES_H

#include "offload/Core/Diagnostics.h"
#include "offload/Core/KernelDescriptor.h"

#include "clang/AST/Type.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <variant>

namespace clang {
class ASTContext;
class DiagnosticsEngine;
class FieldDecl;
class FunctionDecl;
class ParmVarDecl;
} // namespace clang

namespace offload {

/// The rows of the transfer table, in the order the README lists them.
enum class RuleId : unsigned {
  ByValue,
  ConstRef,
  ConstArrayRef,
  MutRef,
  MutArrayRef,
  SpanConst,
  SpanMut,
  OutRef,
  OutSpan,
  InRef,
  InSpan,
  ConstStdArray,
  MutStdArray,
  Reduction,
  SpanFields,
};

/// One row: the parameter form it matches, the transfer, and the size.
struct TransferRule {
  RuleId Id;
  const char *ParamForm; ///< e.g. "std::span<const T>"
  MapKind Map;
  const char *SizeRule; ///< e.g. "size_bytes() at run time"
};

/// The table itself; documentation and `offload-rewrite --explain` print it.
llvm::ArrayRef<TransferRule> transferTable();
const TransferRule &ruleFor(RuleId Id);

/// One std::span field of a class-type parameter (the SpanFields row): how
/// C++ names it from the parameter and the span row its type matches.
struct FieldPlan {
  std::string Path; ///< e.g. "grid.energy", "Base::ids" or "cells[1].mass"
  RuleId Row;       ///< SpanConst, SpanMut or OutSpan
  std::string SizeExpr;
  /// The member access from the parameter, without base qualifiers
  /// ("ids"), as offload-rewrite spells it.
  std::string Access;
  /// Every member and base class on the way is public: code outside the
  /// class can name the field (offload-rewrite's condition).
  bool Public = true;
  clang::QualType Type; ///< the span's type, for --explain
};

/// What a parameter's type decides.
struct ParamRule {
  RuleId Row;
  ParamLayout Layout;      ///< the part the IR lowering needs
  clang::QualType Pointee; ///< the object (Value/Object) or element (Span)
  /// Size expression in source form, in terms of the parameter's name, for
  /// the rewriter's map clauses and --explain.
  std::string SizeExpr;
  /// SpanFields: the span fields, in layout order (Layout.Fields' order).
  llvm::SmallVector<FieldPlan, 0> Fields;
};

/// What a field found by ParamIndirectField holds.
enum class IndirectKind : unsigned {
  Pointer,
  Reference,
  Span,
  FunctionPointer
};

/// Why a parameter's type is rejected: a row of Diagnostics.def with its
/// arguments, reported at the parameter by reportViolation.
struct RuleViolation {
  DiagId Id;
  clang::QualType Type; ///< the offending type (%1)
  /// ParamRawPointer: the element type of the suggested span;
  /// ParamSpanByReference: the span type to take by value.
  clang::QualType Suggestion;
  /// ParamIndirectField: the path from `Record` to the field, e.g.
  /// "inner.data", "Base::ptr" or "cells[].next", and what the field is.
  std::string FieldPath;
  clang::QualType Record;
  IndirectKind Indirect = IndirectKind::Pointer;
  const clang::FieldDecl *Field = nullptr;
  /// ParamFieldNotCopyable: every such field of the parameter, each with
  /// its path, its type and (for a std::vector) the span's element type.
  struct BadField {
    std::string Path;
    const clang::FieldDecl *Field;
    clang::QualType Type, SpanElement;
  };
  llvm::SmallVector<BadField, 0> BadFields;
};

using ParamClassification = std::variant<ParamRule, RuleViolation>;

/// Classifies one kernel parameter. `IsOut` and `IsIn` say whether it
/// carries [[offload::out]], [[offload::in]]. The parameter must not be
/// dependent.
ParamClassification classifyParameter(const clang::ParmVarDecl &Param,
                                      bool IsOut, clang::ASTContext &Ctx,
                                      bool IsIn = false);

/// The span fields of an object of class type `Object` as the SpanFields
/// row moves them for a kernel parameter of that type named `Name`: its
/// Aggregate layout (what ofld::region keeps resident for such an object)
/// and its per-field plans (what offload-rewrite names). None where that row
/// does not apply (no span fields, or a parameter of that type is an error).
std::optional<ParamRule> spanFieldsOf(clang::QualType Object,
                                      clang::ASTContext &Ctx,
                                      llvm::StringRef Name = "object");

/// Reports `V` for parameter `Param` of `Kernel` as the plugin and
/// offload-rewrite both do: at the parameter, with the row's arguments, a
/// fix-it where the repair is obvious and a note at an offending field.
void reportViolation(clang::DiagnosticsEngine &Diags,
                     const clang::FunctionDecl &Kernel,
                     const clang::ParmVarDecl &Param, const RuleViolation &V,
                     clang::ASTContext &Ctx);

/// Kernel-level rules (return type, member, variadic...). Returns the first
/// violation, if any.
std::optional<DiagId> checkKernelSignature(const clang::FunctionDecl &Kernel);

/// For a reduction parameter (`ofld::sum<T>&`, min, max), the type `T` of the
/// variable a launch passes for it; a null type for any other parameter.
clang::QualType reductionVariableType(clang::QualType Param);

} // namespace offload

#endif // OFFLOAD_CORE_TRANSFERRULES_H
