//===- TransferRules.cpp - C++ parameter type -> data movement ------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "offload/Core/TransferRules.h"
#include "offload/Core/KernelAttributes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace offload {

// Every row's T (and a span's element type) must have a trivial copy: a
// trivial copy constructor and a trivial destructor, so that its bytes are
// the object (what the launch moves and copies back), and no pointer,
// reference or span inside. std::pair, std::tuple, std::optional and
// std::complex of such types qualify; their non-trivial assignment
// operators do not matter, since nothing assigns them.
static constexpr TransferRule Table[] = {
    {RuleId::ByValue, "T (by value, trivial copy)", MapKind::Literal,
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
    // Scratch inputs: the kernel may write its device copy, which is its
    // own (the CPU paths give it a private copy too), and nothing comes back.
    {RuleId::InRef, "[[offload::in]] T&", MapKind::To, "sizeof(T)"},
    {RuleId::InSpan, "[[offload::in]] std::span<T>", MapKind::To,
     "size_bytes() at run time"},
    {RuleId::ConstStdArray, "const std::array<T, N>&", MapKind::To,
     "sizeof(std::array<T, N>)"},
    {RuleId::MutStdArray, "std::array<T, N>&", MapKind::ToFrom,
     "sizeof(std::array<T, N>)"},
    // A reduction (docs/Reductions.md): the argument is a T lvalue; the
    // kernel's threads combine into accumulators of their own, the device
    // keeps one partial per block in scratch of the runtime's.
    {RuleId::Reduction, "ofld::sum<T>& | ofld::min<T>& | ofld::max<T>&",
     MapKind::ToFrom, "sizeof(T) (+ a device partial per block)"},
    // A class (by value, const S& or S&) with std::span fields at any
    // depth: the object's bytes are copied (as T by value), each span
    // field's elements move by the span row its type matches, and the
    // device copy's spans view the device's ranges (docs/StructsOfSpans.md).
    {RuleId::SpanFields, "S, const S&, S& (S with std::span fields)",
     MapKind::Literal, "sizeof(S); each span field: its row"},
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

/// Whether copying `T` is copying its bytes, as
/// std::is_trivially_copy_constructible and std::is_trivially_destructible
/// say together: a copy constructor that is trivial and not deleted, and a
/// trivial, non-deleted destructor (arrays: of their elements). Weaker than
/// trivially copyable, which also asks trivial assignment operators:
/// std::pair and std::tuple have user-provided ones but copy as bytes.
static bool hasTrivialCopy(QualType T, ASTContext &Ctx) {
  if (!T.isTriviallyCopyConstructibleType(Ctx))
    return false;
  const auto *RD = Ctx.getBaseElementType(T)->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return true;
  // A deleted copy constructor counts as trivial to the above.
  if (RD->needsImplicitCopyConstructor())
    return !RD->defaultedCopyConstructorIsDeleted();
  return llvm::any_of(RD->ctors(), [](const CXXConstructorDecl *C) {
    return C->isCopyConstructor() && !C->isDeleted();
  });
}

/// The element type of arrays and std::arrays, at any depth; `Suffix` gets
/// a "[]" per level, to name a field path through them.
static QualType elementType(QualType T, ASTContext &Ctx,
                            std::string *Suffix = nullptr) {
  for (;;) {
    if (const ArrayType *AT = Ctx.getAsArrayType(T))
      T = AT->getElementType();
    else if (const auto *Arr = asStd(T, "array"))
      T = Arr->getTemplateArgs()[0].getAsType();
    else
      return T;
    if (Suffix)
      *Suffix += "[]";
  }
}

/// A field that holds a host address, and the path to it from the record
/// that was searched.
struct IndirectField {
  std::string Path;
  const FieldDecl *Field;
  IndirectKind Kind;
};

/// What `T` (a field's element type) is, if it holds a host address.
static std::optional<IndirectKind> indirection(QualType T) {
  if (T->isReferenceType())
    return IndirectKind::Reference;
  if (T->isFunctionPointerType() || T->isMemberFunctionPointerType())
    return IndirectKind::FunctionPointer;
  // A pointer to data member is an offset, meaningful on the device too.
  if (T->isPointerType())
    return IndirectKind::Pointer;
  if (asStd(T, "span"))
    return IndirectKind::Span;
  return std::nullopt;
}

/// Pointer and reference fields of a class-type parameter are copied as
/// bytes: a kernel that never follows one runs fine, and one that does is
/// stopped where it reads it (KernelBodyChecks.cpp).
static bool isCopiedAsBytes(IndirectKind K) {
  return K == IndirectKind::Pointer || K == IndirectKind::Reference;
}

/// Finds the first field of `RD` (through base classes, nested records and
/// arrays of them) that holds a host address; with `Copyable`, one that is
/// not copied as bytes. Trivially copyable is not
/// enough: the bytes copy, but the address in them means nothing on the
/// device.
static std::optional<IndirectField> findIndirectField(const RecordDecl *RD,
                                                      ASTContext &Ctx,
                                                      unsigned Depth = 0,
                                                      bool Copyable = false) {
  if (!RD || !(RD = RD->getDefinition()) || RD->isInvalidDecl() || Depth > 32)
    return std::nullopt;
  if (const auto *CXX = dyn_cast<CXXRecordDecl>(RD))
    for (const CXXBaseSpecifier &B : CXX->bases()) {
      const RecordDecl *Base = B.getType()->getAsRecordDecl();
      if (auto Found = findIndirectField(Base, Ctx, Depth + 1, Copyable)) {
        // `o.Base::field` is how C++ itself names it.
        Found->Path = Base->getNameAsString() + "::" + Found->Path;
        return Found;
      }
    }
  for (const FieldDecl *F : RD->fields()) {
    std::string Suffix;
    QualType FT = elementType(F->getType(), Ctx, &Suffix);
    // Members of an anonymous struct or union are named as the outer's.
    std::string Name =
        F->isAnonymousStructOrUnion() ? "" : F->getName().str() + Suffix;
    if (auto Kind = indirection(FT)) {
      if (Copyable && isCopiedAsBytes(*Kind))
        continue;
      return IndirectField{Name, F, *Kind};
    }
    if (auto Found = findIndirectField(FT->getAsRecordDecl(), Ctx, Depth + 1,
                                       Copyable)) {
      if (!Name.empty())
        Found->Path = Name + "." + Found->Path;
      return Found;
    }
  }
  return std::nullopt;
}

/// Rejects an object whose bytes hold host addresses; `Whole` is the array
/// or span that `T` is the element of, if any.
static std::optional<RuleViolation>
checkIndirection(QualType T, ASTContext &Ctx, QualType Whole = QualType(),
                 bool Copyable = false) {
  QualType Elem = elementType(T, Ctx);
  QualType Record = Elem.getUnqualifiedType();
  if (Elem.getTypePtr() != T.getTypePtr())
    Whole = T;
  if (auto Kind = indirection(Elem); Kind && !Whole.isNull()) {
    // An array or span of spans: no field to name, the elements are it.
    RuleViolation V{DiagId::ParamIndirectField, T, {}};
    V.Record = Whole.getUnqualifiedType();
    V.Indirect = *Kind;
    return V;
  }
  auto Found = findIndirectField(Elem->getAsRecordDecl(), Ctx, 0, Copyable);
  if (!Found)
    return std::nullopt;
  RuleViolation V{DiagId::ParamIndirectField, T, {}};
  V.FieldPath = Found->Path;
  V.Record = Record;
  V.Indirect = Found->Kind;
  V.Field = Found->Field;
  return V;
}

/// Rejects what cannot be copied byte-wise, or copies but cannot be used on
/// the device; shared by all payload kinds.
static std::optional<RuleViolation> checkObjectType(QualType T, ASTContext &Ctx,
                                                    bool Copyable = false) {
  QualType Base = elementType(T, Ctx);
  if (Base->isFunctionPointerType() || Base->isMemberFunctionPointerType())
    return RuleViolation{DiagId::ParamFunctionPointer, T, {}};
  if (Base->isPointerType())
    return RuleViolation{DiagId::ParamRawPointer, T, Base->getPointeeType()};
  if (const auto *RD = Base->getAsCXXRecordDecl();
      RD && RD->hasDefinition() && RD->isPolymorphic())
    return RuleViolation{DiagId::ParamPolymorphic, T, {}};
  if (!hasTrivialCopy(Base, Ctx))
    return RuleViolation{DiagId::ParamNotTriviallyCopyable, T, {}};
  // Only the object itself (not an array of them) is a class parameter,
  // and only the user's classes: device code reads std::pair's pointer
  // through library code the body checks do not follow.
  const auto *RD = Base->getAsCXXRecordDecl();
  return checkIndirection(T, Ctx, QualType(),
                          Copyable && Base.getTypePtr() == T.getTypePtr() &&
                              RD && !RD->isInStdNamespace());
}

static ParamRule objectRule(RuleId Row, MapKind Map, QualType Object,
                            ASTContext &Ctx, llvm::StringRef Name) {
  ParamRule R{Row, {}, Object, {}};
  R.Layout.Kind = PayloadKind::Object;
  R.Layout.Map = Map;
  R.Layout.Bytes = Ctx.getTypeSizeInChars(Object).getQuantity();
  if (const auto *CAT = Ctx.getAsConstantArrayType(Object)) {
    R.Layout.Count = CAT->getZExtSize();
    R.SizeExpr = "sizeof(" + Name.str() + ")";
  } else if (const auto *Arr = asStd(Object, "array")) {
    R.Layout.Count = Arr->getTemplateArgs()[1].getAsIntegral().getZExtValue();
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

/// The operation of `ofld::sum<T>`, `ofld::min<T>` or `ofld::max<T>`
/// (reduction.hpp), and its T; None for any other type.
static std::pair<ReduceKind, QualType> reductionOf(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T->getAsCXXRecordDecl());
  if (!Spec || Spec->getTemplateArgs().size() != 1 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return {ReduceKind::None, {}};
  const auto *NS = dyn_cast<NamespaceDecl>(Spec->getDeclContext());
  if (!NS || NS->getName() != "ofld" ||
      !NS->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return {ReduceKind::None, {}};
  ReduceKind K = llvm::StringSwitch<ReduceKind>(Spec->getName())
                     .Case("sum", ReduceKind::Sum)
                     .Case("min", ReduceKind::Min)
                     .Case("max", ReduceKind::Max)
                     .Default(ReduceKind::None);
  return {K, Spec->getTemplateArgs()[0].getAsType()};
}

QualType reductionVariableType(QualType Param) {
  return reductionOf(Param.getNonReferenceType()).second;
}

/// Whether a reduction takes `T`: integers (no bool) and float or double
/// of at most 8 bytes, the same on host and device
/// (ofld::detail::reduction_value).
static bool isReductionValue(QualType T, ASTContext &Ctx) {
  if (T.hasQualifiers() || T->isDependentType() || T->isIncompleteType())
    return false;
  T = T.getCanonicalType();
  bool Integer =
      T->isIntegerType() && !T->isBooleanType() && !T->isEnumeralType();
  bool Float = T->isSpecificBuiltinType(BuiltinType::Float) ||
               T->isSpecificBuiltinType(BuiltinType::Double);
  return (Integer || Float) && Ctx.getTypeSize(T) <= 64;
}

/// A reduction parameter: `ofld::sum<T>&` (min, max) with a T the
/// reductions take. The device copy of the variable is an object of T,
/// copied to and from the device.
static std::optional<ParamClassification>
classifyReduction(QualType T, bool IsOut, bool IsIn, ASTContext &Ctx,
                  llvm::StringRef Name) {
  QualType Object = T.getNonReferenceType();
  auto [Kind, Elem] = reductionOf(Object);
  if (Kind == ReduceKind::None)
    return std::nullopt;
  if (!T->isLValueReferenceType())
    return RuleViolation{DiagId::ReductionByValue, T, {}};
  if (Object.isConstQualified() || IsOut || IsIn) {
    // Indirect says which, for the message: const, out, in.
    RuleViolation V{DiagId::ReductionQualified, T, {}};
    V.Indirect = IsOut  ? IndirectKind::Reference
                 : IsIn ? IndirectKind::Span
                        : IndirectKind::Pointer;
    return V;
  }
  if (!isReductionValue(Elem, Ctx))
    return RuleViolation{DiagId::ReductionType, T, Elem};
  ParamRule R{RuleId::Reduction, {}, Elem, "sizeof(" + Name.str() + ")"};
  R.Layout.Kind = PayloadKind::Object;
  R.Layout.Map = MapKind::ToFrom;
  R.Layout.Bytes = Ctx.getTypeSizeInChars(Elem).getQuantity();
  R.Layout.Reduce = Kind;
  return R;
}

/// A sized parameter of lvalue reference type `T` to `Object`: one object
/// (or array) whose direction its constness, [[offload::out]] and
/// [[offload::in]] give.
static ParamClassification classifyReference(QualType T, QualType Object,
                                             bool IsOut, bool IsIn,
                                             ASTContext &Ctx,
                                             llvm::StringRef Name) {
  if (auto V = checkObjectType(Object, Ctx, /*Copyable=*/true))
    return *V;
  bool IsConst = Object.isConstQualified() ||
                 Ctx.getBaseElementType(Object).isConstQualified();
  if (IsOut && IsConst)
    return RuleViolation{DiagId::OutOnConst, T, {}};
  if (IsIn && IsConst)
    return RuleViolation{DiagId::InOnConst, T, {}};
  bool IsArray = Ctx.getAsConstantArrayType(Object) != nullptr;
  bool IsStdArray = asStd(Object, "array") != nullptr;
  RuleId Row;
  MapKind Map;
  if (IsOut) {
    Row = RuleId::OutRef;
    Map = MapKind::From;
  } else if (IsIn) {
    Row = RuleId::InRef;
    Map = MapKind::To;
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
  ParamRule R = objectRule(Row, Map, Object, Ctx, Name);
  R.Layout.Scratch = IsIn;
  return R;
}

/// A std::span parameter of type `T` (specialisation `Span`), by value: its
/// elements move, the span's data pointer and size are found in it.
static ParamClassification
classifySpan(QualType T, const ClassTemplateSpecializationDecl *Span,
             bool IsOut, bool IsIn, ASTContext &Ctx, llvm::StringRef Name) {
  QualType Elem = Span->getTemplateArgs()[0].getAsType();
  if (Elem->isFunctionPointerType() || Elem->isMemberFunctionPointerType())
    return RuleViolation{DiagId::ParamFunctionPointer, Elem, {}};
  if (Elem->isPointerType())
    return RuleViolation{DiagId::ParamRawPointer, Elem, Elem->getPointeeType()};
  if (!hasTrivialCopy(Elem, Ctx) || Elem->isReferenceType())
    return RuleViolation{DiagId::ParamSpanElement, Elem, {}};
  if (auto V = checkIndirection(Elem, Ctx, T))
    return *V;
  bool IsConst = Elem.isConstQualified();
  if (IsOut && IsConst)
    return RuleViolation{DiagId::OutOnConst, T, {}};
  if (IsIn && IsConst)
    return RuleViolation{DiagId::InOnConst, T, {}};
  const RecordDecl *RD = Span;
  auto Data = findField(RD, Ctx, [](QualType F) { return F->isPointerType(); });
  auto Size = findField(RD, Ctx, [](QualType F) { return F->isIntegerType(); });
  uint64_t Extent = Span->getTemplateArgs()[1].getAsIntegral().getZExtValue();
  bool Dynamic = Extent == ~uint64_t(0);
  ParamRule R{IsOut     ? RuleId::OutSpan
              : IsIn    ? RuleId::InSpan
              : IsConst ? RuleId::SpanConst
                        : RuleId::SpanMut,
              {},
              Elem,
              Name.str() + ".size_bytes()"};
  R.Layout.Kind = PayloadKind::Span;
  R.Layout.Map = IsOut               ? MapKind::From
                 : (IsIn || IsConst) ? MapKind::To
                                     : MapKind::ToFrom;
  R.Layout.Scratch = IsIn;
  R.Layout.Bytes = Ctx.getTypeSizeInChars(Elem).getQuantity();
  R.Layout.Count = Dynamic ? 0 : Extent;
  R.Layout.DataOffset = Data.value_or(0);
  R.Layout.CountOffset = Size.value_or(0);
  R.Layout.SpanBytes = Ctx.getTypeSizeInChars(T).getQuantity();
  // A dynamic span without a visible size member would be a library we do
  // not understand; treat it as not trivially copyable rather than guess.
  if (!Data || (Dynamic && !Size))
    return RuleViolation{DiagId::ParamNotTriviallyCopyable, T, {}};
  return R;
}

/// The walk of a class-type parameter's object for the SpanFields row: its
/// span fields (at any depth, through bases, nested members and arrays, each
/// array element a field of its own) and the fields that cannot be copied
/// byte by byte, all of them, so that one compile reports every one.
class FieldWalk {
public:
  FieldWalk(ASTContext &Ctx, llvm::StringRef Param) : Ctx(Ctx), Param(Param) {}

  void walkRecord(const RecordDecl *RD, uint64_t Offset,
                  const std::string &Path, const std::string &Access,
                  unsigned Depth) {
    if (!RD || !(RD = RD->getDefinition()) || RD->isInvalidDecl() || Depth > 32)
      return;
    const ASTRecordLayout &Layout = Ctx.getASTRecordLayout(RD);
    if (const auto *CXX = dyn_cast<CXXRecordDecl>(RD))
      for (const CXXBaseSpecifier &B : CXX->bases()) {
        const auto *Base = B.getType()->getAsCXXRecordDecl();
        if (!Base || B.isVirtual())
          continue;
        uint64_t At = Offset + Layout.getBaseClassOffset(Base).getQuantity();
        // `o.Base::field` is how C++ itself names it; the access needs no
        // qualification (a base's member is the derived object's).
        Hidden += B.getAccessSpecifier() != AS_public;
        walkRecord(Base, At, Path + Base->getNameAsString() + "::", Access,
                   Depth + 1);
        Hidden -= B.getAccessSpecifier() != AS_public;
      }
    for (const FieldDecl *F : RD->fields()) {
      uint64_t At = Offset + Ctx.toCharUnitsFromBits(
                                    Layout.getFieldOffset(F->getFieldIndex()))
                                 .getQuantity();
      bool Anonymous = F->isAnonymousStructOrUnion();
      std::string Name = Anonymous ? "" : F->getName().str();
      Hidden += F->getAccess() != AS_public;
      walkField(F, F->getType(), At, Path + Name, Access + Name, Anonymous,
                Depth + 1);
      Hidden -= F->getAccess() != AS_public;
    }
  }

  bool hasSpans() const { return !Spans.empty(); }

  llvm::SmallVector<SpanField, 0> Layouts;
  llvm::SmallVector<FieldPlan, 0> Spans;
  llvm::SmallVector<RuleViolation::BadField, 0> Bad;
  /// A span field whose elements the span rows reject: reported alone.
  std::optional<RuleViolation> BadSpan;

private:
  /// `T`: the field's type, or an element of it; `Path`/`Access` name it.
  void walkField(const FieldDecl *F, QualType T, uint64_t Offset,
                 const std::string &Path, const std::string &Access,
                 bool Anonymous, unsigned Depth) {
    std::string Sep = Anonymous ? "" : ".";
    if (const auto *CAT = Ctx.getAsConstantArrayType(T)) {
      walkElements(F, CAT->getElementType(), CAT->getZExtSize(), Offset, Path,
                   Access, Depth);
      return;
    }
    if (const auto *Arr = asStd(T, "array")) {
      // The elements are std::array's one member, `_M_elems` in libstdc++.
      QualType Elem = Arr->getTemplateArgs()[0].getAsType();
      uint64_t N = Arr->getTemplateArgs()[1].getAsIntegral().getZExtValue();
      walkElements(F, Elem, N, Offset, Path, Access, Depth);
      return;
    }
    if (const auto *Span = asStd(T, "span")) {
      addSpan(F, T, Span, Offset, Path, Access);
      return;
    }
    if (indirection(T))
      return; // copied as bytes (pointers, references) or refused elsewhere
    const auto *RD = T->getAsCXXRecordDecl();
    if (!RD || !RD->hasDefinition())
      return;
    // A field that copies as bytes only because the whole class does not is
    // what to name: the std::vector, not the struct that holds it.
    bool OwnCopy = RD->isInStdNamespace() || RD->isPolymorphic() ||
                   RD->hasUserDeclaredCopyConstructor() ||
                   RD->hasUserDeclaredDestructor();
    if (!hasTrivialCopy(T, Ctx) && OwnCopy) {
      QualType Elem;
      if (const auto *Vec = asStd(T, "vector"))
        Elem = Vec->getTemplateArgs()[0].getAsType();
      Bad.push_back({Path, F, T, Elem});
      return;
    }
    walkRecord(RD, Offset, Path.empty() ? Path : Path + Sep,
               Access.empty() ? Access : Access + Sep, Depth);
  }

  void walkElements(const FieldDecl *F, QualType Elem, uint64_t N,
                    uint64_t Offset, const std::string &Path,
                    const std::string &Access, unsigned Depth) {
    uint64_t Size = Ctx.getTypeSizeInChars(Elem).getQuantity();
    // Only spans need an entry per element; anything else is checked once.
    if (!containsSpan(Elem, Depth)) {
      if (N)
        walkField(F, Elem, Offset, Path + "[]", Access + "[0]", false, Depth);
      return;
    }
    for (uint64_t I = 0; I < N; ++I) {
      std::string Index = "[" + std::to_string(I) + "]";
      walkField(F, Elem, Offset + I * Size, Path + Index, Access + Index, false,
                Depth);
    }
  }

  bool containsSpan(QualType T, unsigned Depth) {
    T = elementType(T, Ctx);
    if (asStd(T, "span"))
      return true;
    const auto *RD = T->getAsCXXRecordDecl();
    if (!RD || !(RD = RD->getDefinition()) || Depth > 32 ||
        RD->isInStdNamespace())
      return false;
    for (const CXXBaseSpecifier &B : RD->bases())
      if (containsSpan(B.getType(), Depth + 1))
        return true;
    return llvm::any_of(RD->fields(), [&](const FieldDecl *F) {
      return containsSpan(F->getType(), Depth + 1);
    });
  }

  void addSpan(const FieldDecl *F, QualType T,
               const ClassTemplateSpecializationDecl *Span, uint64_t Offset,
               const std::string &Path, const std::string &Access) {
    bool IsOut = isOutField(*F);
    ParamClassification C =
        classifySpan(T, Span, IsOut, /*IsIn=*/false, Ctx, Access);
    if (auto *V = std::get_if<RuleViolation>(&C)) {
      if (!BadSpan) {
        BadSpan = *V;
        if (V->Id == DiagId::ParamIndirectField && V->FieldPath.empty()) {
          BadSpan->FieldPath = Path;
          BadSpan->Field = F;
        }
      }
      return;
    }
    const ParamRule &R = std::get<ParamRule>(C);
    SpanField L;
    L.Offset = Offset;
    L.Map = R.Layout.Map;
    L.Bytes = R.Layout.Bytes;
    L.Count = R.Layout.Count;
    L.DataOffset = R.Layout.DataOffset;
    L.CountOffset = R.Layout.CountOffset;
    L.Path = Path;
    Layouts.push_back(L);
    Spans.push_back(
        {Path, R.Row, Param.str() + "." + R.SizeExpr, Access, Hidden == 0, T});
  }

  ASTContext &Ctx;
  llvm::StringRef Param;
  /// Members and bases on the way to the current field that are not public.
  unsigned Hidden = 0;
};

/// A parameter whose object is of class type `Object` (by value, or what
/// a reference refers to): the SpanFields row where a span field is in it
/// at any depth; every field that cannot be copied byte by byte, reported
/// together; None for the other rows to decide.
static std::optional<ParamClassification>
classifyAggregate(QualType T, QualType Object, bool IsOut, bool IsIn,
                  ASTContext &Ctx, llvm::StringRef Name) {
  const auto *RD = Object->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || RD->isInStdNamespace() ||
      RD->isPolymorphic() || reductionOf(Object).first != ReduceKind::None)
    return std::nullopt;
  FieldWalk W(Ctx, Name);
  W.walkRecord(RD, 0, "", "", 0);
  if (!W.Bad.empty()) {
    RuleViolation V{DiagId::ParamFieldNotCopyable, T, {}};
    V.Record = Object.getUnqualifiedType();
    V.BadFields = std::move(W.Bad);
    return V;
  }
  if (W.BadSpan) {
    W.BadSpan->Record = Object.getUnqualifiedType();
    return *W.BadSpan;
  }
  if (!W.hasSpans())
    return std::nullopt;
  if (auto V = checkObjectType(Object, Ctx, /*Copyable=*/true);
      V && V->Id != DiagId::ParamIndirectField)
    return *V;
  if (auto V = checkIndirection(Object, Ctx, QualType(), /*Copyable=*/true)) {
    // A function pointer, or a span of spans, inside the object.
    if (V->Indirect != IndirectKind::Span)
      return *V;
  }
  if (IsOut)
    return RuleViolation{DiagId::OutOnAggregate, T, {}};
  if (IsIn)
    return RuleViolation{DiagId::InOnAggregate, T, {}};
  ParamRule R{RuleId::SpanFields, {}, Object, "sizeof(" + Name.str() + ")"};
  R.Layout.Kind = PayloadKind::Aggregate;
  // The object's bytes are copied, by value and by reference alike; nothing
  // copies it back: its span fields carry what the kernel writes.
  R.Layout.Map = MapKind::Literal;
  R.Layout.Bytes = Ctx.getTypeSizeInChars(Object).getQuantity();
  R.Layout.Fields = std::move(W.Layouts);
  R.Fields = std::move(W.Spans);
  return R;
}

ParamClassification classifyParameter(const ParmVarDecl &Param, bool IsOut,
                                      ASTContext &Ctx, bool IsIn) {
  QualType T = Param.getType();
  llvm::StringRef Name = Param.getName();
  if (IsOut && IsIn)
    return RuleViolation{DiagId::InAndOut, T, {}};
  if (auto R = classifyReduction(T, IsOut, IsIn, Ctx, Name))
    return *R;
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
      return RuleViolation{DiagId::ParamSpanByReference, T,
                           Object.getUnqualifiedType()};
    if (Object->isFunctionType())
      return RuleViolation{DiagId::ParamFunctionPointer, T, {}};
  }

  if (!isSized(T, Ctx))
    return RuleViolation{DiagId::ParamIncompleteType, T, {}};

  QualType Object = T.getNonReferenceType();
  if (auto R = classifyAggregate(T, Object, IsOut, IsIn, Ctx, Name))
    return *R;
  if (const auto *Ref = T->getAs<LValueReferenceType>())
    return classifyReference(T, Ref->getPointeeType(), IsOut, IsIn, Ctx, Name);
  if (const auto *Span = asStd(T, "span"))
    return classifySpan(T, Span, IsOut, IsIn, Ctx, Name);

  // By value.
  if (IsOut)
    return RuleViolation{DiagId::OutOnByValue, T, {}};
  if (IsIn)
    return RuleViolation{DiagId::InOnByValue, T, {}};
  if (auto V = checkObjectType(T, Ctx, /*Copyable=*/true))
    return *V;
  ParamRule R{RuleId::ByValue, {}, T, "sizeof(" + Name.str() + ")"};
  R.Layout.Kind = PayloadKind::Value;
  R.Layout.Map = MapKind::Literal;
  R.Layout.Bytes = Ctx.getTypeSizeInChars(T).getQuantity();
  return R;
}

std::optional<ParamRule> spanFieldsOf(QualType Object, ASTContext &Ctx,
                                      llvm::StringRef Name) {
  if (Object->isDependentType() || !isSized(Object, Ctx))
    return std::nullopt;
  std::optional<ParamClassification> C = classifyAggregate(
      Object, Object, /*IsOut=*/false, /*IsIn=*/false, Ctx, Name);
  auto *R = C ? std::get_if<ParamRule>(&*C) : nullptr;
  if (!R)
    return std::nullopt;
  return std::move(*R);
}

/// The text a fix-it replaces to give parameter `P` another type: from its
/// first decl-specifier (after any attributes) up to its name. Invalid where
/// that is not plain text of one file (macros, instantiated templates).
static CharSourceRange paramTypeRange(const FunctionDecl &Kernel,
                                      const ParmVarDecl &P, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Begin = P.getOuterLocStart(), Name = P.getLocation();
  if (Kernel.getTemplateInstantiationPattern() || !P.getIdentifier() ||
      Begin.isInvalid() || !Begin.isFileID() || !Name.isFileID())
    return {};
  auto [FID, From] = SM.getDecomposedLoc(Begin);
  auto [NameFID, To] = SM.getDecomposedLoc(Name);
  if (FID != NameFID || To <= From)
    return {};
  llvm::StringRef Text = SM.getBufferData(FID).slice(From, To);
  // Attributes written before the type stay.
  size_t Skip = 0;
  for (;;) {
    llvm::StringRef Rest = Text.drop_front(Skip);
    size_t Space = Rest.size() - Rest.ltrim().size();
    Rest = Rest.ltrim();
    llvm::StringRef Open = Rest.starts_with("[[")              ? "[["
                           : Rest.starts_with("__attribute__") ? "(("
                                                               : "";
    if (Open.empty()) {
      Skip += Space;
      break;
    }
    size_t Close = Rest.find(Open == "[[" ? "]]" : "))");
    if (Close == llvm::StringRef::npos)
      return {};
    Skip += Space + Close + 2;
  }
  if (Skip >= Text.size())
    return {};
  return CharSourceRange::getCharRange(Begin.getLocWithOffset(Skip), Name);
}

void reportViolation(DiagnosticsEngine &Diags, const FunctionDecl &Kernel,
                     const ParmVarDecl &Param, const RuleViolation &V,
                     ASTContext &Ctx) {
  SourceLocation Loc = Param.getLocation().isValid() ? Param.getLocation()
                                                     : Kernel.getLocation();
  PrintingPolicy Policy = Ctx.getPrintingPolicy();
  // Every field at once, each with what to write instead.
  for (const RuleViolation::BadField &F : V.BadFields) {
    report(Diags, Loc, DiagId::ParamFieldNotCopyable)
        << &Param << F.Path << V.Record.getAsString(Policy) << F.Type
        << (F.SpanElement.isNull() ? 1 : 0)
        << (F.SpanElement.isNull() ? "" : F.SpanElement.getAsString(Policy));
    if (F.Field && F.Field->getLocation().isValid())
      report(Diags, F.Field->getLocation(), DiagId::FieldNote) << F.Field;
  }
  if (!V.BadFields.empty())
    return;
  {
    DiagnosticBuilder DB = report(Diags, Loc, V.Id) << &Param;
    switch (V.Id) {
    case DiagId::OutOnByValue:
    case DiagId::InOnByValue:
    case DiagId::InAndOut:
      break;
    case DiagId::OutOnAggregate:
    case DiagId::InOnAggregate:
      DB << V.Type.getNonReferenceType().getUnqualifiedType();
      break;
    case DiagId::ReductionByValue:
      DB << V.Type
         << V.Type.getNonReferenceType().getUnqualifiedType().getAsString(
                Policy) +
                " &";
      break;
    case DiagId::ReductionQualified:
      DB << V.Type
         << (V.Indirect == IndirectKind::Reference ? 1
             : V.Indirect == IndirectKind::Span    ? 2
                                                   : 0);
      break;
    case DiagId::ReductionType:
      DB << V.Type << V.Suggestion;
      break;
    case DiagId::ParamIndirectField:
      DB << V.FieldPath << V.Record.getAsString(Policy)
         << static_cast<unsigned>(V.Indirect) << (V.Field ? 0 : 1);
      break;
    case DiagId::ParamRawPointer: {
      // A pointer to const reads only: suggest a span of const elements.
      QualType Elem = V.Suggestion.getUnqualifiedType();
      if (V.Suggestion.isConstQualified())
        Elem.addConst();
      DB << V.Type << Elem.getAsString(Policy);
      break;
    }
    case DiagId::ParamSpanByReference: {
      // Keep the span's own spelling, and so the constness of its elements:
      // `const std::span<const float>&` -> `std::span<const float>`.
      std::string Span = V.Suggestion.getAsString(Policy);
      DB << V.Type << Span;
      if (CharSourceRange R = paramTypeRange(Kernel, Param, Ctx); R.isValid())
        DB << FixItHint::CreateReplacement(R, Span + " ");
      break;
    }
    default:
      DB << V.Type;
      break;
    }
  }
  if (V.Field && V.Field->getLocation().isValid())
    report(Diags, V.Field->getLocation(), DiagId::FieldNote) << V.Field;
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
