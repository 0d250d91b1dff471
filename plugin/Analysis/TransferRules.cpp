//===- TransferRules.cpp - C++ parameter type -> data movement ------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "TransferRules.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace offload {

static constexpr TransferRule Table[] = {
    {RuleId::ByValue, "T (by value, trivially copyable)", MapKind::Literal,
     "sizeof(T)"},
    {RuleId::ConstRef, "const T&", MapKind::To, "sizeof(T)"},
    {RuleId::ConstArrayRef, "const T(&)[N]", MapKind::To, "N * sizeof(T)"},
    {RuleId::MutRef, "T&", MapKind::ToFrom, "sizeof(T)"},
    {RuleId::MutArrayRef, "T(&)[N]", MapKind::ToFrom, "N * sizeof(T)"},
    {RuleId::SpanConst, "std::span<const T>", MapKind::To,
     "size_bytes() at run time"},
    {RuleId::SpanMut, "std::span<T>", MapKind::ToFrom,
     "size_bytes() at run time"},
    {RuleId::OutRef, "[[offload::out]] T&", MapKind::From, "sizeof(T)"},
    {RuleId::OutSpan, "[[offload::out]] std::span<T>", MapKind::From,
     "size_bytes() at run time"},
    {RuleId::ConstStdArray, "const std::array<T, N>&", MapKind::To,
     "sizeof(std::array<T, N>)"},
    {RuleId::MutStdArray, "std::array<T, N>&", MapKind::ToFrom,
     "sizeof(std::array<T, N>)"},
};

llvm::ArrayRef<TransferRule> transferTable() { return Table; }

const TransferRule &ruleFor(RuleId Id) {
  return Table[static_cast<unsigned>(Id)];
}

/// Matches `std::<Name><...>` and returns the specialisation.
static const ClassTemplateSpecializationDecl *asStd(QualType T,
                                                    llvm::StringRef Name) {
  const auto *RD = T->getAsCXXRecordDecl();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || !Spec->isInStdNamespace() || Spec->getName() != Name)
    return nullptr;
  return Spec;
}

/// Finds the first field, at any depth, whose type satisfies `Pred`, and
/// returns its byte offset inside `RD`. std::span's members are private and
/// library specific (libstdc++ nests the extent), so search, don't name.
template <class PredT>
static std::optional<uint64_t> findField(const RecordDecl *RD, ASTContext &Ctx,
                                         PredT Pred) {
  const ASTRecordLayout &Layout = Ctx.getASTRecordLayout(RD);
  for (const FieldDecl *F : RD->fields()) {
    uint64_t Offset =
        Ctx.toCharUnitsFromBits(Layout.getFieldOffset(F->getFieldIndex()))
            .getQuantity();
    QualType FT = F->getType();
    if (Pred(FT))
      return Offset;
    if (const auto *Nested = FT->getAsRecordDecl())
      if (auto Inner = findField(Nested, Ctx, Pred))
        return Offset + *Inner;
  }
  return std::nullopt;
}

static bool isTriviallyCopyable(QualType T, ASTContext &Ctx) {
  return T.isTriviallyCopyableType(Ctx);
}

/// Rejects what cannot be copied byte-wise; shared by all payload kinds.
static std::optional<RuleViolation> checkObjectType(QualType T,
                                                    ASTContext &Ctx) {
  QualType Base = Ctx.getBaseElementType(T);
  if (Base->isFunctionPointerType() || Base->isMemberFunctionPointerType())
    return RuleViolation{DiagId::ParamFunctionPointer, T, {}};
  if (Base->isPointerType())
    return RuleViolation{DiagId::ParamRawPointer, T, Base->getPointeeType()};
  if (const auto *RD = Base->getAsCXXRecordDecl();
      RD && RD->hasDefinition() && RD->isPolymorphic())
    return RuleViolation{DiagId::ParamPolymorphic, T, {}};
  if (!isTriviallyCopyable(Base, Ctx))
    return RuleViolation{DiagId::ParamNotTriviallyCopyable, T, {}};
  return std::nullopt;
}

static ParamRule objectRule(RuleId Row, MapKind Map, QualType Object,
                            ASTContext &Ctx, llvm::StringRef Name) {
  ParamRule R{Row, {}, Object, {}};
  R.Layout.Kind = PayloadKind::Object;
  R.Layout.Map = Map;
  R.Layout.Bytes = Ctx.getTypeSizeInChars(Object).getQuantity();
  if (const auto *CAT = Ctx.getAsConstantArrayType(Object)) {
    R.Layout.Count = CAT->getZExtSize();
    R.Layout.IsArrayLike = true;
    R.SizeExpr = "sizeof(" + Name.str() + ")";
  } else if (const auto *Arr = asStd(Object, "array")) {
    R.Layout.Count = Arr->getTemplateArgs()[1].getAsIntegral().getZExtValue();
    R.Layout.IsArrayLike = true;
    R.SizeExpr = "sizeof(" + Name.str() + ")";
  } else {
    R.SizeExpr = "sizeof(" + Name.str() + ")";
  }
  return R;
}

/// Whether the size of `T` (through arrays and, for a span, of its elements)
/// is known; nothing below may ask the layout of an incomplete type.
static bool isSized(QualType T, ASTContext &Ctx) {
  T = Ctx.getBaseElementType(T.getNonReferenceType());
  if (T->isFunctionType())
    return true;
  if (T->isIncompleteType() || T->isDependentType())
    return false;
  if (const auto *RD = T->getAsRecordDecl(); RD && RD->isInvalidDecl())
    return false;
  if (const auto *Span = asStd(T, "span"))
    return isSized(Span->getTemplateArgs()[0].getAsType(), Ctx);
  return true;
}

ParamClassification classifyParameter(const ParmVarDecl &Param, bool IsOut,
                                      ASTContext &Ctx) {
  QualType T = Param.getType();
  llvm::StringRef Name = Param.getName();
  if (T->isRValueReferenceType())
    return RuleViolation{DiagId::ParamRValueReference, T, {}};

  // The shape of a reference is wrong whether or not its target is complete.
  if (const auto *Ref = T->getAs<LValueReferenceType>()) {
    QualType Object = Ref->getPointeeType();
    if (Object->isPointerType() && !Object->isFunctionPointerType())
      return RuleViolation{DiagId::ParamReferenceToPointer, T, {}};
    // A span is a view: by reference only its header would move, and the
    // kernel would follow a host pointer.
    if (asStd(Object, "span"))
      return RuleViolation{DiagId::ParamSpanByReference, T, {}};
    if (Object->isFunctionType())
      return RuleViolation{DiagId::ParamFunctionPointer, T, {}};
  }

  if (!isSized(T, Ctx))
    return RuleViolation{DiagId::ParamIncompleteType, T, {}};

  if (const auto *Ref = T->getAs<LValueReferenceType>()) {
    QualType Object = Ref->getPointeeType();
    if (auto V = checkObjectType(Object, Ctx))
      return *V;
    bool IsConst = Object.isConstQualified() ||
                   Ctx.getBaseElementType(Object).isConstQualified();
    if (IsOut && IsConst)
      return RuleViolation{DiagId::OutOnConst, T, {}};
    bool IsArray = Ctx.getAsConstantArrayType(Object) != nullptr;
    bool IsStdArray = asStd(Object, "array") != nullptr;
    RuleId Row;
    MapKind Map;
    if (IsOut) {
      Row = RuleId::OutRef;
      Map = MapKind::From;
    } else if (IsConst) {
      Row = IsArray      ? RuleId::ConstArrayRef
            : IsStdArray ? RuleId::ConstStdArray
                         : RuleId::ConstRef;
      Map = MapKind::To;
    } else {
      Row = IsArray      ? RuleId::MutArrayRef
            : IsStdArray ? RuleId::MutStdArray
                         : RuleId::MutRef;
      Map = MapKind::ToFrom;
    }
    return objectRule(Row, Map, Object, Ctx, Name);
  }

  if (const auto *Span = asStd(T, "span")) {
    QualType Elem = Span->getTemplateArgs()[0].getAsType();
    if (Elem->isFunctionPointerType() || Elem->isMemberFunctionPointerType())
      return RuleViolation{DiagId::ParamFunctionPointer, Elem, {}};
    if (Elem->isPointerType())
      return RuleViolation{DiagId::ParamRawPointer, Elem,
                           Elem->getPointeeType()};
    if (!isTriviallyCopyable(Elem, Ctx) || Elem->isReferenceType())
      return RuleViolation{DiagId::ParamSpanElement, Elem, {}};
    bool IsConst = Elem.isConstQualified();
    if (IsOut && IsConst)
      return RuleViolation{DiagId::OutOnConst, T, {}};
    const RecordDecl *RD = Span;
    auto Data = findField(RD, Ctx, [](QualType F) { return F->isPointerType(); });
    auto Size = findField(
        RD, Ctx, [](QualType F) { return F->isIntegerType(); });
    uint64_t Extent = Span->getTemplateArgs()[1].getAsIntegral().getZExtValue();
    bool Dynamic = Extent == ~uint64_t(0);
    ParamRule R{IsOut ? RuleId::OutSpan
                      : (IsConst ? RuleId::SpanConst : RuleId::SpanMut),
                {}, Elem, Name.str() + ".size_bytes()"};
    R.Layout.Kind = PayloadKind::Span;
    R.Layout.Map = IsOut ? MapKind::From : IsConst ? MapKind::To : MapKind::ToFrom;
    R.Layout.Bytes = Ctx.getTypeSizeInChars(Elem).getQuantity();
    R.Layout.Count = Dynamic ? 0 : Extent;
    R.Layout.DataOffset = Data.value_or(0);
    R.Layout.CountOffset = Size.value_or(0);
    R.Layout.SpanBytes = Ctx.getTypeSizeInChars(T).getQuantity();
    R.Layout.IsArrayLike = true;
    // A dynamic span without a visible size member would be a library we do
    // not understand; treat it as not trivially copyable rather than guess.
    if (!Data || (Dynamic && !Size))
      return RuleViolation{DiagId::ParamNotTriviallyCopyable, T, {}};
    return R;
  }

  // By value.
  if (IsOut)
    return RuleViolation{DiagId::OutOnByValue, T, {}};
  if (auto V = checkObjectType(T, Ctx))
    return *V;
  ParamRule R{RuleId::ByValue, {}, T, "sizeof(" + Name.str() + ")"};
  R.Layout.Kind = PayloadKind::Value;
  R.Layout.Map = MapKind::Literal;
  R.Layout.Bytes = Ctx.getTypeSizeInChars(T).getQuantity();
  return R;
}

std::optional<DiagId> checkKernelSignature(const FunctionDecl &Kernel) {
  if (Kernel.isMain())
    return DiagId::KernelIsMain;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(&Kernel)) {
    if (MD->isVirtual())
      return DiagId::KernelIsVirtual;
    if (MD->isInstance())
      return DiagId::KernelIsMember;
  }
  if (!Kernel.getReturnType()->isDependentType() &&
      !Kernel.getReturnType()->isVoidType())
    return DiagId::KernelReturnsValue;
  if (Kernel.isVariadic())
    return DiagId::KernelIsVariadic;
  if (isa_and_nonnull<CoroutineBodyStmt>(Kernel.getBody()))
    return DiagId::KernelIsCoroutine;
  return std::nullopt;
}

} // namespace offload
