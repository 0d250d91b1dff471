//===- LaunchGroups.cpp - consecutive launches that share data ------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// A group is a run of consecutive statements of one block, each an
// `offload(kernel, args...)` or `offload(config, kernel, args...)` call whose
// arguments the host evaluates without reading any data the group keeps on
// the device, and which all run now on the default device's default queue
// (where the group holds its data, as a call without a configuration does):
//
//  * a mapped parameter (reference or span) names a whole variable: `x`, or a
//    std::span made of one (`std::span<float>(v)`, an implicit conversion);
//  * a by-value parameter is built from literals and scalar variables only;
//  * a launch configuration is built the same way (ofld::launch and
//    ofld::dim3 made of those, `ofld::launch{.grid = {n / 256}}`), or names
//    an ofld::launch variable, and leaves .device, .queue and .nowait
//    unset: written out, or in the initialiser of a const variable it names.
//    A configuration that sets any of them joins no group (the device it
//    names may not be the one the group holds its data on, and a launch that
//    does not wait would need the group's end to wait for it).
//
// The group holds the variables that its first call maps and a later call
// maps again; it ends with the last call that uses one of them. Span
// variables are never held: a span can view part of another argument, and a
// held range must contain whatever later calls map inside it.
//
// A struct of spans passed whole (`offload(k, s)`) is held as its span
// fields, each with its own transfer (LaunchGroup::Held is then only "held";
// the lowering maps each field), once per group. Its fields, like spans, may
// view part of any other argument: the group holds them only where every
// range its calls map is held too (mapped together, as their union), and
// where every call takes the struct as the same class (the same fields).
//
//===----------------------------------------------------------------------===//

#include "offload/Core/LaunchGroups.h"
#include "offload/Core/LaunchChecks.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>

using namespace clang;

namespace offload {
namespace {

bool isStdSpan(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->isInStdNamespace() && RD->getName() == "span";
}

/// A std::span, or the bundled header's argument type deriving from one
/// (__ofld::span_param, which spares the front end std::span's constructors).
bool isSpanArgument(QualType T) {
  if (isStdSpan(T))
    return true;
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->hasDefinition() &&
         llvm::any_of(RD->bases(), [](const CXXBaseSpecifier &B) {
           return isStdSpan(B.getType());
         });
}

/// The variable whose whole object (or, through a span made of it, whose
/// elements) an argument maps; null for anything else.
const VarDecl *wholeVariable(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(&mappedObject(*E));
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// Whether `T` is one of the launch configuration's own types
/// (offload/launch.hpp): ofld::launch, ofld::dim3, their dim_component and
/// ofld::queue hold numbers only.
bool isLaunchType(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->getIdentifier())
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(RD->getDeclContext());
  if (!NS || NS->getName() != "ofld" ||
      !NS->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return false;
  llvm::StringRef Name = RD->getName();
  return Name == "launch" || Name == "dim3" || Name == "dim_component" ||
         Name == "queue";
}

/// Whether a by-value argument or a launch configuration reads nothing but
/// literals and scalar variables (collected in `Reads`): no call, member,
/// subscript or pointer could reach data a group keeps on the device. A
/// configuration may also name a variable of a launch type (collected too),
/// and build those types from such values (braces, their constructors, the
/// defaults of their members).
bool readsOnlyScalars(const Expr *E,
                      llvm::SmallPtrSetImpl<const VarDecl *> &Reads) {
  E = E->IgnoreImplicit()->IgnoreParens();
  if (isa<IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr, CharacterLiteral,
          CXXNullPtrLiteralExpr, UnaryExprOrTypeTraitExpr,
          ImplicitValueInitExpr>(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (isa<EnumConstantDecl>(DRE->getDecl()))
      return true;
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || VD->getType()->isReferenceType() ||
        !(VD->getType()->isScalarType() || isLaunchType(VD->getType())) ||
        VD->getType()->isPointerType())
      return false;
    Reads.insert(VD);
    return true;
  }
  if (isLaunchType(E->getType())) {
    if (const auto *IL = dyn_cast<InitListExpr>(E))
      return llvm::all_of(IL->inits(), [&](const Expr *I) {
        return readsOnlyScalars(I, Reads);
      });
    if (const auto *C = dyn_cast<CXXConstructExpr>(E))
      return llvm::all_of(C->arguments(), [&](const Expr *A) {
        return readsOnlyScalars(A, Reads);
      });
  }
  // A member's default, where a launch type's braces leave it unset.
  if (const auto *D = dyn_cast<CXXDefaultInitExpr>(E))
    return readsOnlyScalars(D->getExpr(), Reads);
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return !U->isIncrementDecrementOp() && U->getOpcode() != UO_Deref &&
           U->getOpcode() != UO_AddrOf &&
           readsOnlyScalars(U->getSubExpr(), Reads);
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return !B->isAssignmentOp() && !B->isCompoundAssignmentOp() &&
           !B->isCommaOp() && readsOnlyScalars(B->getLHS(), Reads) &&
           readsOnlyScalars(B->getRHS(), Reads);
  if (const auto *C = dyn_cast<ConditionalOperator>(E))
    return readsOnlyScalars(C->getCond(), Reads) &&
           readsOnlyScalars(C->getTrueExpr(), Reads) &&
           readsOnlyScalars(C->getFalseExpr(), Reads);
  if (const auto *C = dyn_cast<ExplicitCastExpr>(E))
    return readsOnlyScalars(C->getSubExpr(), Reads);
  return false;
}

/// The braces of a launch configuration: `{...}`, `ofld::launch{...}`, or
/// those of the const variable it names (no other code can change it); null
/// for anything else.
const InitListExpr *configBraces(const Expr *E) {
  auto Strip = [](const Expr *X) {
    X = X->IgnoreImplicit()->IgnoreParens();
    if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(X))
      X = F->getSubExpr()->IgnoreImplicit()->IgnoreParens();
    return X;
  };
  E = Strip(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    QualType T = VD ? VD->getType() : QualType();
    if (!VD || T->isReferenceType() || !T.isConstQualified() ||
        T.isVolatileQualified() || !VD->getInit())
      return nullptr;
    E = Strip(VD->getInit());
  }
  return dyn_cast<InitListExpr>(E);
}

/// Whether a launch configuration leaves .device, .queue and .nowait unset:
/// the launch then runs on the default device's default queue and returns
/// when it is done, as a launch without one (where a group holds its data).
bool keepsDefaultPlacement(const Expr *Config) {
  const InitListExpr *IL = configBraces(Config);
  const RecordDecl *RD = IL ? IL->getType()->getAsRecordDecl() : nullptr;
  if (!RD || !isLaunchType(IL->getType()))
    return false;
  for (const FieldDecl *F : RD->fields()) {
    llvm::StringRef Name = F->getName();
    if (Name != "device" && Name != "queue" && Name != "nowait")
      continue;
    unsigned I = F->getFieldIndex();
    if (I < IL->getNumInits() &&
        !isa<CXXDefaultInitExpr, ImplicitValueInitExpr>(IL->getInit(I)))
      return false;
  }
  return true;
}

/// The variable a struct of spans argument names: `s`, or the copy of `s`
/// a by-value parameter gets.
const VarDecl *wholeObject(const Expr *E) {
  E = E->IgnoreImplicit()->IgnoreParens();
  if (const auto *C = dyn_cast<CXXConstructExpr>(E);
      C && C->getNumArgs() == 1 &&
      C->getConstructor()->isCopyOrMoveConstructor())
    E = C->getArg(0);
  return wholeVariable(E);
}

/// Whether two calls' parameters holding one struct variable see the same
/// span fields.
bool sameFields(const ParamLayout &A, const ParamLayout &B) {
  if (A.Kind != PayloadKind::Aggregate || B.Kind != PayloadKind::Aggregate ||
      A.Bytes != B.Bytes || A.Fields.size() != B.Fields.size())
    return false;
  for (auto [F, G] : llvm::zip_equal(A.Fields, B.Fields))
    if (F.Offset != G.Offset || F.Map != G.Map)
      return false;
  return true;
}

/// One statement that may join a group.
struct Launch {
  const CallExpr *Call = nullptr;
  const KernelDescriptor *Kernel = nullptr;
  /// Per parameter: the variable it maps whole, if it may be held.
  llvm::SmallVector<const VarDecl *, 8> Holdable;
  llvm::SmallPtrSet<const VarDecl *, 8> ReadByValue;
  /// Some parameter maps a range no group holds (a span variable).
  bool MapsUnheld = false;
};

std::optional<Launch> asLaunch(const Stmt *S, LaunchKernelFn KernelOf) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return std::nullopt;
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    E = EWC->getSubExpr();
  const auto *CE = dyn_cast<CallExpr>(E->IgnoreParens());
  const KernelDescriptor *K = CE ? KernelOf(*CE) : nullptr;
  std::optional<LaunchedKernel> Form = K ? launchedKernel(*CE) : std::nullopt;
  if (!Form || CE->getNumArgs() < Form->FirstArg + K->Params.size())
    return std::nullopt;
  // An [[offload::in]] parameter's device copy is the launch's own: a group
  // would hand it the held copy, written by or for the other launches.
  if (llvm::any_of(K->Params, [](const ParamLayout &P) { return P.Scratch; }))
    return std::nullopt;
  Launch L;
  L.Call = CE;
  L.Kernel = K;
  // A launch configuration (before the kernel) is evaluated before the
  // launch, as the arguments are.
  bool Configured = Form->FirstArg > 1;
  if (Configured && (!readsOnlyScalars(CE->getArg(0), L.ReadByValue) ||
                     !keepsDefaultPlacement(CE->getArg(0))))
    return std::nullopt;
  for (auto [I, P] : llvm::enumerate(K->Params)) {
    const Expr *Arg = CE->getArg(Form->FirstArg + I);
    if (P.Kind == PayloadKind::Aggregate) {
      const VarDecl *V = wholeObject(Arg);
      if (!V)
        return std::nullopt;
      L.Holdable.push_back(V);
      continue;
    }
    if (P.Kind == PayloadKind::Value) {
      if (!readsOnlyScalars(Arg, L.ReadByValue))
        return std::nullopt;
      L.Holdable.push_back(nullptr);
      continue;
    }
    const VarDecl *V = wholeVariable(Arg);
    if (!V)
      return std::nullopt;
    bool Span = isStdSpan(V->getType());
    L.MapsUnheld |= Span;
    L.Holdable.push_back(Span ? nullptr : V);
  }
  return L;
}

bool reads(MapKind M) { return M == MapKind::To || M == MapKind::ToFrom; }
bool writes(MapKind M) { return M == MapKind::From || M == MapKind::ToFrom; }

} // namespace

void findLaunchGroups(const CompoundStmt &Block, LaunchKernelFn KernelOf,
                      unsigned &NextId,
                      llvm::DenseMap<const CallExpr *, LaunchGroup> &Groups) {
  llvm::SmallVector<std::optional<Launch>, 16> Ls;
  for (const Stmt *S : Block.body())
    Ls.push_back(asLaunch(S, KernelOf));

  for (size_t First = 0; First < Ls.size(); ++First) {
    if (!Ls[First])
      continue;
    const Launch &Open = *Ls[First];
    // Structs of spans the first call takes: candidates only where the
    // group turns out to hold every range it maps (below).
    llvm::DenseMap<const VarDecl *, const ParamLayout *> Structs;
    for (auto [I, V] : llvm::enumerate(Open.Holdable))
      if (V && Open.Kernel->Params[I].Kind == PayloadKind::Aggregate)
        Structs.try_emplace(V, &Open.Kernel->Params[I]);
    llvm::SmallPtrSet<const VarDecl *, 8> Held;
    size_t Last = First;
    auto findHeld = [&](bool WithStructs) {
      llvm::SmallPtrSet<const VarDecl *, 8> Candidates;
      for (const VarDecl *V : Open.Holdable)
        if (V && (WithStructs || !Structs.count(V)))
          Candidates.insert(V);
      Held.clear();
      Last = First;
      for (size_t J = First + 1; J < Ls.size() && Ls[J]; ++J) {
        // Reading a candidate by value needs its host copy current: stop
        // here.
        if (llvm::any_of(Ls[J]->ReadByValue,
                         [&](const VarDecl *V) { return Candidates.count(V); }))
          break;
        for (const VarDecl *V : Ls[J]->Holdable)
          if (V && Candidates.count(V)) {
            Held.insert(V);
            Last = J;
          }
      }
    };
    // With structs held: every call of the group maps only held ranges,
    // and takes each held struct as the first call's class.
    auto holdsAll = [&] {
      if (llvm::none_of(
              Held, [&](const VarDecl *V) { return Structs.count(V) != 0; }))
        return true;
      for (size_t J = First; J <= Last; ++J) {
        const Launch &L = *Ls[J];
        if (L.MapsUnheld)
          return false;
        for (auto [P, W] : llvm::enumerate(L.Holdable)) {
          const ParamLayout &Layout = L.Kernel->Params[P];
          if (Layout.Kind != PayloadKind::Value && (!W || !Held.count(W)))
            return false;
          auto It = W ? Structs.find(W) : Structs.end();
          if (It != Structs.end() && !sameFields(*It->second, Layout))
            return false;
        }
      }
      return true;
    };
    findHeld(/*WithStructs=*/true);
    if (!holdsAll())
      findHeld(/*WithStructs=*/false);
    if (Held.empty())
      continue;

    // What the group moves for each held variable: in if the first call
    // reads it, back if any call writes it.
    LaunchGroup G;
    G.Id = NextId++;
    G.Held.assign(Open.Kernel->Params.size(), MapKind::Literal);
    llvm::SmallPtrSet<const VarDecl *, 8> Done;
    for (auto [I, V] : llvm::enumerate(Open.Holdable)) {
      if (!V || !Held.count(V) || !Done.insert(V).second)
        continue;
      if (auto It = Structs.find(V); It != Structs.end()) {
        // Each span field with its own transfer, the same in every call.
        G.Held[I] = MapKind::ToFrom;
        G.NumHeld += It->second->Fields.size();
        continue;
      }
      bool In = false, Out = false;
      for (size_t J = First; J <= Last; ++J)
        for (auto [P, W] : llvm::enumerate(Ls[J]->Holdable)) {
          if (W != V)
            continue;
          MapKind M = Ls[J]->Kernel->Params[P].Map;
          In |= J == First && reads(M);
          Out |= writes(M);
        }
      G.Held[I] = In && Out ? MapKind::ToFrom
                  : In      ? MapKind::To
                            : MapKind::From;
      ++G.NumHeld;
    }
    for (size_t J = First; J <= Last; ++J) {
      LaunchGroup Member;
      Member.Id = G.Id;
      Member.NumHeld = G.NumHeld;
      Member.Opens = J == First;
      Member.Closes = J == Last;
      if (Member.Opens)
        Member.Held = G.Held;
      Groups[Ls[J]->Call] = std::move(Member);
    }
    First = Last;
  }
}

const VarDecl *heldVariable(const Expr &Arg) { return wholeVariable(&Arg); }

const Expr &mappedObject(const Expr &Arg) {
  const Expr *E = &Arg;
  for (;;) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *C = dyn_cast<CXXConstructExpr>(E)) {
      if (!isSpanArgument(C->getType()) || C->getNumArgs() != 1)
        return *E;
      E = C->getArg(0);
    } else if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = F->getSubExpr();
    } else {
      return *E;
    }
  }
}

} // namespace offload
