//===- RewriteConsumer.cpp - offload() sources to OpenMP, per TU ----------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Finds the kernels and offload() calls of a translation unit, checks them
// exactly as the plugin does (the transfer table, the attributes, the calls,
// launch shapes and kernel bodies: the same code, in the plugin's order), and
// records the edits that turn them into OpenMP: each call (CallRewriter.cpp,
// Lowering.cpp), launch groups, loops that keep their data on the device
// (the plugin's loop residency), `declare target` around kernels and the
// tables they read, the span parameters and shared arrays g++ needs spelled
// differently (DeviceCode.cpp), and the bridge include.
//
//===----------------------------------------------------------------------===//

#include "offload/Rewriter.h"

#include "CallRewriter.h"
#include "DeviceCode.h"
#include "Lowering.h"
#include "RewriteContext.h"
#include "SourceText.h"
#include "offload/Core/BoundAnalysis.h"
#include "offload/Core/CallShape.h"
#include "offload/Core/CallWalker.h"
#include "offload/Core/Diagnostics.h"
#include "offload/Core/KernelAttributes.h"
#include "offload/Core/KernelBodyChecks.h"
#include "offload/Core/LaunchChecks.h"
#include "offload/Core/LaunchGroups.h"
#include "offload/Core/LoopResidency.h"
#include "offload/Core/RegionConstness.h"
#include "offload/Core/TransferRules.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <map>

using namespace clang;
using namespace llvm;

namespace offload {
namespace rewrite {
namespace {

//===----------------------------------------------------------------------===//
// Include directives, to find where the bridge include goes.
//===----------------------------------------------------------------------===//

struct IncludeLine {
  unsigned Offset; ///< start of the directive's line
  bool Angled, IsOffloadHeader, IsBridge;
};
using IncludeMap = std::map<FileID, std::vector<IncludeLine>>;

class IncludeRecorder : public PPCallbacks {
public:
  IncludeRecorder(const SourceManager &SM, IncludeMap &Out)
      : SM(SM), Out(Out) {}

  void InclusionDirective(SourceLocation HashLoc, const Token &,
                          StringRef FileName, bool IsAngled, CharSourceRange,
                          OptionalFileEntryRef, StringRef, StringRef,
                          const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    if (!HashLoc.isFileID())
      return;
    auto [FID, Off] = SM.getDecomposedLoc(HashLoc);
    StringRef Buf = SM.getBufferData(FID);
    StringRef Name = sys::path::filename(FileName);
    Out[FID].push_back({lineStart(Buf, Off), IsAngled, Name == "offload.hpp",
                        Name == "omp_bridge.hpp"});
  }

private:
  const SourceManager &SM;
  IncludeMap &Out;
};

/// Ranks of insertions at one offset: what closes the code before comes
/// first, what opens the code after comes last.
enum Rank : unsigned { Closing = 0, Naming = 1, Replacing = 2, Opening = 3 };

/// Whether a declaration already sits in a declare target region (our own
/// earlier output, or the user's): such attributes carry the directive's
/// location.
bool inDeclareTarget(const Decl &D) {
  for (const auto *A : D.specific_attrs<OMPDeclareTargetDeclAttr>())
    if (A->getRange().getBegin().isValid())
      return true;
  return false;
}

/// `Text` without trailing space and the `#line` directives that end it
/// (our output keeps the original line numbers with them).
StringRef withoutLineDirectives(StringRef Text) {
  for (Text = Text.rtrim();;) {
    size_t NL = Text.rfind('\n');
    size_t Start = NL == StringRef::npos ? 0 : NL + 1;
    if (!Text.drop_front(Start).ltrim().starts_with("#line "))
      return Text;
    Text = Text.take_front(Start).rtrim();
  }
}

/// Brackets declaration `D` with `#pragma omp declare target`, so that
/// OpenMP compiles it for the device (also where it is only declared: the
/// definition may be in another translation unit). Returns false when its
/// text is spelled across macros.
bool wrapInDeclareTarget(RewriteContext &RC, const Decl &D) {
  const SourceManager &SM = RC.SM;
  const Decl *Outer = &D;
  if (const auto *FD = dyn_cast<FunctionDecl>(&D))
    if (const FunctionTemplateDecl *TD = FD->getDescribedFunctionTemplate())
      Outer = TD;
  if (const auto *RD = dyn_cast<CXXRecordDecl>(&D))
    if (const ClassTemplateDecl *TD = RD->getDescribedClassTemplate())
      Outer = TD;
  if (const auto *VD = dyn_cast<VarDecl>(&D))
    if (const VarTemplateDecl *TD = VD->getDescribedVarTemplate())
      Outer = TD;
  SourceLocation Begin = Outer->getBeginLoc(), End = Outer->getEndLoc();
  for (const Attr *A : D.attrs()) {
    SourceLocation L = A->getRange().getBegin();
    if (L.isValid() && !A->isInherited() &&
        SM.isBeforeInTranslationUnit(SM.getFileLoc(L), SM.getFileLoc(Begin)) &&
        SM.getFileID(SM.getFileLoc(L)) == SM.getFileID(SM.getFileLoc(Begin)))
      Begin = L;
  }
  std::optional<FileRange> FR =
      fileRange(SM, RC.langOpts(), SourceRange(Begin, End));
  if (!FR)
    return false;
  StringRef Buf = SM.getBufferData(FR->File);
  unsigned B = attributeListBegin(SM, RC.langOpts(), FR->File, FR->Begin);
  unsigned E = FR->End;
  bool HasBody = false;
  if (const auto *FD = dyn_cast<FunctionDecl>(&D))
    HasBody = FD->doesThisDeclarationHaveABody();
  if (!HasBody)
    if (std::optional<unsigned> Semi =
            semicolonAfter(SM, RC.langOpts(), FR->File, E))
      E = *Semi;

  // `#pragma` must start a line: reuse the declaration's line and
  // indentation where it starts one, else break the line.
  std::optional<StringRef> Indent = indentBefore(Buf, B);
  // Bracketed already (clang records no attribute on variable templates).
  const std::string Directive = declareTargetBegin("");
  if (Indent && withoutLineDirectives(Buf.take_front(lineStart(Buf, B)))
                    .ends_with(StringRef(Directive).rtrim()))
    return true;
  if (Indent)
    RC.edit(FR->File, lineStart(Buf, B), 0, declareTargetBegin(*Indent),
            Opening);
  else
    RC.edit(FR->File, B, 0, "\n" + declareTargetBegin(""), Opening);
  StringRef EndIndent = Indent ? *Indent : StringRef();
  if (restOfLineIsEmpty(Buf, E)) {
    size_t NL = Buf.find('\n', E);
    if (NL == StringRef::npos)
      RC.edit(FR->File, Buf.size(), 0, "\n" + declareTargetEnd(EndIndent),
              Closing);
    else
      RC.edit(FR->File, unsigned(NL + 1), 0, declareTargetEnd(EndIndent),
              Closing);
  } else {
    RC.edit(FR->File, E, 0, "\n" + declareTargetEnd(EndIndent), Closing);
  }
  return true;
}

/// Every declaration of `D` in the user's files, in declare target. Static
/// data members come with their class (wrapClass); g++ 12 refuses their
/// definitions outside it in declare target (OpenMP 4.5's rule).
void wrapRedeclarations(RewriteContext &RC, const Decl &D) {
  if (const auto *VD = dyn_cast<VarDecl>(&D); VD && VD->isStaticDataMember())
    return;
  for (const Decl *R : D.redecls())
    if (RC.isUserFile(R->getLocation()) && !inDeclareTarget(*R) &&
        !R->isImplicit())
      if (!wrapInDeclareTarget(RC, *R))
        if (const auto *FD = dyn_cast<FunctionDecl>(R))
          report(RC.Diags, FD->getLocation(), DiagId::RewriteKernelAcrossMacros)
              << FD;
}

/// Brackets class `RD` (at namespace scope), whose static data members
/// device code reads, with declare target, unless it is there already.
void wrapClass(RewriteContext &RC, const CXXRecordDecl &RD) {
  if (!RC.isUserFile(RD.getLocation()))
    return;
  // Members of a declare target class carry the directive (a template's
  // in its instantiations).
  auto Wrapped = [](const CXXRecordDecl &C) {
    return llvm::any_of(C.decls(), [](const Decl *Member) {
      return isa<VarDecl>(Member) && inDeclareTarget(*Member);
    });
  };
  if (Wrapped(RD))
    return;
  if (const ClassTemplateDecl *TD = RD.getDescribedClassTemplate())
    for (const ClassTemplateSpecializationDecl *S : TD->specializations())
      if (Wrapped(*S))
        return;
  wrapInDeclareTarget(RC, RD);
}

/// Rewrites the by-value std::span parameters of `FD` that g++ refuses in
/// device code to ofld::bridge::span_param (the same type elsewhere). A
/// parameter the function assigns (or whose address it takes) is renamed
/// `__ofld_param_<name>` in the definition, whose body starts with a local
/// std::span of the old name, initialised from it, on the same line (g++
/// accepts local spans).
void respellSpanParams(RewriteContext &RC, const FunctionDecl &FD) {
  const SourceManager &SM = RC.SM;
  for (const FunctionDecl *R : FD.redecls()) {
    if (!RC.isUserFile(R->getLocation()))
      continue;
    for (const ParmVarDecl *P : R->parameters()) {
      bool Assigned = !isReadOnlySpanByValue(*P);
      const auto *Body =
          dyn_cast_or_null<CompoundStmt>(R->hasBody() ? R->getBody() : nullptr);
      if (Assigned && (!isSpanByValue(P->getType()) || !P->getIdentifier() ||
                       !R->doesThisDeclarationHaveABody() || !Body))
        continue;
      TypeSourceInfo *TSI = P->getTypeSourceInfo();
      if (!TSI)
        continue;
      TypeLoc TL = TSI->getTypeLoc().getUnqualifiedLoc();
      // Already ofld::bridge::span_param (our earlier output), or spelled
      // through some other alias whose spelling we keep.
      auto TST = TL.getAs<TemplateSpecializationTypeLoc>();
      if (!TST)
        continue;
      const TemplateDecl *Named =
          TST.getTypePtr()->getTemplateName().getAsTemplateDecl();
      if (!Named || Named->getName() != "span" || !Named->isInStdNamespace() ||
          !TST.getNumArgs())
        continue;
      // The arguments as written: the type's own range leaves out its
      // qualifiers (`const float`), so take the text after `<`.
      std::optional<FileRange> Open =
          fileRange(SM, RC.langOpts(),
                    SourceRange(TST.getLAngleLoc(), TST.getLAngleLoc()));
      std::optional<FileRange> First =
          fileRange(SM, RC.langOpts(), TST.getArgLoc(0).getSourceRange());
      if (!Open || !First || Open->File != First->File)
        continue;
      std::string Element = SM.getBufferData(First->File)
                                .slice(Open->End, First->End)
                                .trim()
                                .str();
      std::string Extent;
      if (TST.getNumArgs() > 1)
        Extent = fileText(SM, RC.langOpts(), TST.getArgLoc(1).getSourceRange());
      std::optional<FileRange> FR =
          fileRange(SM, RC.langOpts(),
                    TSI->getTypeLoc().getUnqualifiedLoc().getSourceRange());
      if (Element.empty() || !FR || (TST.getNumArgs() > 1 && Extent.empty()))
        continue;
      if (Assigned) {
        std::optional<FileRange> Name = fileRange(
            SM, RC.langOpts(), SourceRange(P->getLocation(), P->getLocation()));
        SourceLocation Brace = SM.getFileLoc(Body->getLBracLoc());
        if (!Name || Name->File != FR->File || Brace.isInvalid() ||
            SM.getFileID(Brace) != FR->File)
          continue;
        std::string Local = ("__ofld_param_" + P->getName()).str();
        RC.edit(Name->File, Name->Begin, Name->End - Name->Begin, Local,
                Replacing);
        RC.edit(FR->File, SM.getFileOffset(Brace) + 1, 0,
                (" std::span<" + Element +
                 (Extent.empty() ? "" : ", " + Extent) + "> " + P->getName() +
                 " = " + Local + ";")
                    .str(),
                Replacing);
      }
      RC.edit(FR->File, FR->Begin, FR->End - FR->Begin,
              spanParamType(Element, Extent), Replacing, /*Format=*/true);
    }
  }
}

/// The text of parameter `P`'s type, from its decl-specifiers (a `const`
/// the type's range leaves out) to the type's end; none where it is
/// already ofld::bridge::value_param (our earlier output) or not plain text.
std::optional<FileRange> paramTypeRange(RewriteContext &RC,
                                        const ParmVarDecl &P) {
  TypeSourceInfo *TSI = P.getTypeSourceInfo();
  if (!TSI)
    return std::nullopt;
  if (auto TST = TSI->getTypeLoc()
                     .getUnqualifiedLoc()
                     .getAs<TemplateSpecializationTypeLoc>())
    if (const TemplateDecl *Named =
            TST.getTypePtr()->getTemplateName().getAsTemplateDecl();
        Named && Named->getName() == "value_param")
      return std::nullopt;
  return fileRange(
      RC.SM, RC.langOpts(),
      SourceRange(P.getOuterLocStart(), TSI->getTypeLoc().getEndLoc()));
}

/// Rewrites the large by-value parameters of kernel `FD` that it never
/// modifies to ofld::bridge::value_param (a const reference for g++, the
/// type itself elsewhere): the launch passes the copy it mapped to the
/// device, which the kernel reads in place.
void respellValueParams(RewriteContext &RC, const FunctionDecl &FD) {
  const SourceManager &SM = RC.SM;
  for (const FunctionDecl *R : FD.redecls()) {
    if (!RC.isUserFile(R->getLocation()))
      continue;
    for (const ParmVarDecl *P : R->parameters()) {
      if (!isLargeReadOnlyValue(*P, RC.Ctx))
        continue;
      std::optional<FileRange> FR = paramTypeRange(RC, *P);
      if (!FR)
        continue;
      StringRef Type = SM.getBufferData(FR->File).slice(FR->Begin, FR->End);
      RC.edit(FR->File, FR->Begin, FR->End - FR->Begin, valueParamType(Type),
              Replacing, /*Format=*/true);
    }
  }
}

/// Rewrites the by-value parameters of device function `FD` whose class
/// holds std::span fields to ofld::bridge::value_param (a const reference
/// for g++, which refuses such a class by value in device code as it
/// refuses a span; the type itself elsewhere). A parameter the function
/// modifies is renamed `__ofld_param_<name>` in the definition, whose body
/// starts with a local copy of the old name, on the same line.
void respellSpanStructParams(RewriteContext &RC, const FunctionDecl &FD) {
  const SourceManager &SM = RC.SM;
  for (const FunctionDecl *R : FD.redecls()) {
    if (!RC.isUserFile(R->getLocation()))
      continue;
    for (const ParmVarDecl *P : R->parameters()) {
      if (!isSpanStructByValue(*P, RC.Ctx))
        continue;
      std::optional<FileRange> FR = paramTypeRange(RC, *P);
      if (!FR)
        continue;
      if (isModifiedParam(*P, RC.Ctx) && R->doesThisDeclarationHaveABody()) {
        const auto *Body = dyn_cast_or_null<CompoundStmt>(R->getBody());
        std::optional<FileRange> Name = fileRange(
            SM, RC.langOpts(), SourceRange(P->getLocation(), P->getLocation()));
        SourceLocation Brace =
            Body ? SM.getFileLoc(Body->getLBracLoc()) : SourceLocation();
        if (!P->getIdentifier() || !Name || Name->File != FR->File ||
            Brace.isInvalid() || SM.getFileID(Brace) != FR->File)
          continue;
        std::string Local = ("__ofld_param_" + P->getName()).str();
        RC.edit(Name->File, Name->Begin, Name->End - Name->Begin, Local,
                Replacing);
        RC.edit(FR->File, SM.getFileOffset(Brace) + 1, 0,
                (" auto " + P->getName() + " = " + Local + ";").str(),
                Replacing);
      }
      StringRef Type = SM.getBufferData(FR->File).slice(FR->Begin, FR->End);
      RC.edit(FR->File, FR->Begin, FR->End - FR->Begin, valueParamType(Type),
              Replacing, /*Format=*/true);
    }
  }
}

/// The offset just after the line that ends at or after `Last`'s `;`, if
/// nothing follows the `;` on its line.
std::optional<unsigned> lineAfter(RewriteContext &RC, const FileRange &Last) {
  StringRef Buf = RC.SM.getBufferData(Last.File);
  std::optional<unsigned> Semi =
      semicolonAfter(RC.SM, RC.langOpts(), Last.File, Last.End);
  if (!Semi || !restOfLineIsEmpty(Buf, *Semi))
    return std::nullopt;
  size_t NL = Buf.find('\n', *Semi);
  if (NL == StringRef::npos)
    return std::nullopt;
  return unsigned(NL + 1);
}

/// Names each static data member device code reads for g++ 12, which emits
/// device copies of those a `declare target to(...)` names only (the
/// class's declare target brackets serve clang): after its class (or its
/// definition outside the class), a public member in
/// OFFLOAD_BRIDGE_DEVICE_MEMBER; the members that are not public (g++
/// checks access in the directive) in OFFLOAD_BRIDGE_DEVICE_MEMBERS, a
/// struct per outermost class after the last of them, which the classes
/// that enclose them befriend (OFFLOAD_BRIDGE_DEVICE_FRIEND before their
/// closing brace): g++ accepts the directive in a class, and checks access
/// from there.
void nameStaticMembers(RewriteContext &RC, ArrayRef<const VarDecl *> Members) {
  const SourceManager &SM = RC.SM;
  struct Hidden {
    FileRange Last;
    std::vector<std::string> Names;
    SmallVector<const CXXRecordDecl *, 4> Classes;
  };
  std::map<const CXXRecordDecl *, Hidden> HiddenByClass;
  for (const VarDecl *VD : Members) {
    const VarDecl *Pattern = VD->getInstantiatedFromStaticDataMember();
    if (!Pattern)
      Pattern = VD;
    const CXXRecordDecl *RD = outermostClass(*Pattern);
    if (!RD)
      continue;
    bool Public = true;
    SmallVector<const CXXRecordDecl *, 4> Classes;
    for (const Decl *D = Pattern; D && isa<CXXRecordDecl>(D->getDeclContext());
         D = cast<Decl>(D->getDeclContext())) {
      Public &= D->getAccess() == AS_public;
      Classes.push_back(cast<CXXRecordDecl>(D->getDeclContext()));
    }
    const Decl *Outer = RD;
    if (const ClassTemplateDecl *TD = RD->getDescribedClassTemplate())
      Outer = TD;
    // The last of the class and the member's declarations in its file; for
    // a member that is not public, only those in the class's namespace,
    // where the befriended struct is.
    std::optional<FileRange> Last =
        fileRange(SM, RC.langOpts(), Outer->getSourceRange());
    if (!Last || !RC.isUserFile(Outer->getLocation()))
      continue;
    const DeclContext *Home = RD->getDeclContext()->getRedeclContext();
    for (const VarDecl *R : Pattern->redecls())
      if (std::optional<FileRange> FR =
              fileRange(SM, RC.langOpts(), R->getSourceRange());
          FR && FR->File == Last->File && FR->End > Last->End &&
          (Public ||
           R->getLexicalDeclContext()->getRedeclContext()->Equals(Home)))
        Last = FR;
    std::string Name;
    raw_string_ostream OS(Name);
    VD->printQualifiedName(OS, RC.Ctx.getPrintingPolicy());
    if (!Public) {
      auto [It, New] = HiddenByClass.try_emplace(RD, Hidden{*Last, {}, {}});
      Hidden &H = It->second;
      if (Last->File == H.Last.File && Last->End > H.Last.End)
        H.Last = *Last;
      H.Names.push_back(Name);
      for (const CXXRecordDecl *C : Classes)
        if (!llvm::is_contained(H.Classes, C))
          H.Classes.push_back(C);
      continue;
    }
    std::optional<unsigned> After = lineAfter(RC, *Last);
    if (!After)
      continue;
    std::string Directive = "OFFLOAD_BRIDGE_DEVICE_MEMBER(" + Name + ")\n";
    if (SM.getBufferData(Last->File).contains(Directive))
      continue; // our earlier output
    RC.edit(Last->File, *After, 0, Directive, Naming);
    RC.needsBridge(Last->File);
  }
  for (auto &[RD, H] : HiddenByClass) {
    std::string Struct = ("__ofld_device_members_" + RD->getName()).str();
    StringRef Buf = SM.getBufferData(H.Last.File);
    std::optional<unsigned> After = lineAfter(RC, H.Last);
    if (!After || RD->getName().empty() ||
        Buf.contains("OFFLOAD_BRIDGE_DEVICE_MEMBERS(" + Struct + ","))
      continue; // our earlier output
    // Each enclosing class befriends the struct, before its closing brace
    // (on a line of its own where the brace starts its line).
    SmallVector<std::pair<unsigned, std::string>, 4> Friends;
    for (const CXXRecordDecl *C : H.Classes) {
      SourceLocation Close = C->getBraceRange().getEnd();
      if (Close.isInvalid() || Close.isMacroID())
        break;
      auto [FID, Off] = SM.getDecomposedLoc(Close);
      if (FID != H.Last.File)
        break;
      StringRef Before = Buf.take_front(Off);
      size_t LineStart = Before.find_last_of('\n') + 1;
      std::string Friend = "OFFLOAD_BRIDGE_DEVICE_FRIEND(" + Struct + ")";
      if (StringRef Indent = Before.drop_front(LineStart);
          Indent.trim().empty())
        Friends.push_back(
            {unsigned(LineStart), (Indent + "  " + Friend + "\n").str()});
      else
        Friends.push_back({Off, Friend + " "});
    }
    if (Friends.size() != H.Classes.size())
      continue;
    for (auto &[Off, Text] : Friends)
      RC.edit(H.Last.File, Off, 0, Text, Naming);
    std::string Directive = "OFFLOAD_BRIDGE_DEVICE_MEMBERS(" + Struct + ", " +
                            join(H.Names, ", ") + ")\n";
    RC.edit(H.Last.File, *After, 0, Directive, Naming);
    RC.needsBridge(H.Last.File);
  }
}

/// Gives untagged shared arrays a tag for g++, named after the variable
/// and its line (OFFLOAD_BRIDGE_TAG): g++ names untagged arrays by their
/// line, clang by the spelling of their type, which keeps its own naming.
/// Arrays declared together (`shared_array<int, 32> lo, hi;`) share that
/// spelling, so under the plugin they are one array: they share the tag.
void tagSharedArrays(RewriteContext &RC, llvm::ArrayRef<const VarDecl *> Vars) {
  const SourceManager &SM = RC.SM;
  std::set<SourceLocation> Tagged;
  for (const VarDecl *VD : Vars) {
    if (!RC.isUserFile(VD->getLocation()))
      continue;
    auto TST = VD->getTypeSourceInfo()
                   ->getTypeLoc()
                   .getUnqualifiedLoc()
                   .getAs<TemplateSpecializationTypeLoc>();
    if (!TST)
      continue;
    SourceLocation RAngle = SM.getFileLoc(TST.getRAngleLoc());
    if (RAngle.isInvalid() ||
        !SM.isWrittenInSameFile(RAngle, SM.getFileLoc(VD->getLocation())) ||
        !Tagged.insert(RAngle).second)
      continue;
    auto [FID, Off] = SM.getDecomposedLoc(RAngle);
    // Our earlier output: the tag is empty for clang, so the array looks
    // untagged, but its text holds it already.
    auto [LFID, LOff] = SM.getDecomposedLoc(SM.getFileLoc(TST.getLAngleLoc()));
    if (LFID == FID && LOff < Off &&
        SM.getBufferData(FID).slice(LOff, Off).contains("OFFLOAD_BRIDGE_TAG("))
      continue;
    unsigned Line = SM.getSpellingLineNumber(VD->getLocation());
    RC.edit(FID, Off, 0,
            (" OFFLOAD_BRIDGE_TAG(__ofld_tag_" + VD->getName() + "_" +
             Twine(Line) + ")")
                .str(),
            Replacing);
  }
}

/// Per launch, the variables that the loops around it hold (loop
/// residency).
using LoopHeldVars =
    DenseMap<const CallExpr *, SmallPtrSet<const VarDecl *, 4>>;

/// Wraps consecutive launches that share data in a `target data` region
/// that holds it, as the plugin's launch groups do (LaunchGroups.h). What a
/// loop around the group holds is the loop's: the loop, not the group,
/// keeps it across trips (and maps it with the loop's transfers).
void rewriteLaunchGroups(RewriteContext &RC,
                         const std::map<const CallExpr *, PlannedCall> &Calls,
                         const LoopHeldVars &LoopHeld) {
  // The blocks that hold two or more calls outside macros (with or without
  // a launch configuration: findLaunchGroups decides which join).
  std::map<const CompoundStmt *, unsigned> Blocks;
  for (const auto &[CE, P] : Calls) {
    if (P.Call.InMacroArgument)
      continue;
    DynTypedNodeList Parents = RC.Ctx.getParents(*P.Statement);
    if (Parents.size() == 1)
      if (const auto *CS = Parents[0].get<CompoundStmt>())
        ++Blocks[CS];
  }
  unsigned NextId = 1;
  for (const auto &[CS, N] : Blocks) {
    if (N < 2)
      continue;
    DenseMap<const CallExpr *, LaunchGroup> Groups;
    findLaunchGroups(
        *CS,
        [&](const CallExpr &CE) -> const KernelDescriptor * {
          auto It = Calls.find(&CE);
          if (It == Calls.end() || It->second.Call.InMacroArgument)
            return nullptr;
          return &It->second.Kernel;
        },
        NextId, Groups);
    // The group's calls in order: open, ..., close.
    const PlannedCall *Open = nullptr;
    std::vector<HeldRange> Held;
    for (const Stmt *S : CS->body()) {
      const auto *E = dyn_cast<Expr>(S);
      if (!E)
        continue;
      if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
        E = EWC->getSubExpr();
      const auto *CE = dyn_cast<CallExpr>(E->IgnoreParens());
      auto G = CE ? Groups.find(CE) : Groups.end();
      if (G == Groups.end())
        continue;
      const PlannedCall &P = Calls.at(CE);
      if (G->second.Opens) {
        Open = &P;
        Held.clear();
        // The kernel's arguments follow the launch configuration, if any.
        unsigned FirstArg = launchedKernel(*CE)->FirstArg;
        for (auto [I, M] : enumerate(G->second.Held)) {
          // A reduction's variable is folded on the host after each
          // launch (ofld::bridge::reduction): a device copy would be stale.
          if (M == MapKind::Literal || !P.Call.Params[I].Reduction.empty())
            continue;
          // A struct of spans: the plugin's group holds its span fields
          // (LaunchGroups.cpp); here each launch maps them by their access
          // paths, and the object itself is no mappable type for g++.
          if (P.Kernel.Params[I].Kind == PayloadKind::Aggregate)
            continue;
          const VarDecl *V = heldVariable(*CE->getArg(FirstArg + I));
          auto InLoop = LoopHeld.find(CE);
          if (!V || (InLoop != LoopHeld.end() && InLoop->second.count(V)))
            continue;
          HeldRange H;
          H.Kind = P.Kernel.Params[I].Kind;
          H.Map = M;
          H.Variable = V->getName().str();
          // The parameter's own declarator, which spells a span.
          H.Declarator = P.Call.Params[I].Declarator;
          H.Argument = P.Call.Params[I].Argument;
          Held.push_back(std::move(H));
        }
      }
      if (G->second.Closes && Open && !Held.empty()) {
        RC.edit(Open->Range.File, Open->Range.Begin, 0,
                lowerGroupBegin(Open->Call, Held, false), Closing,
                /*Format=*/true);
        RC.edit(P.Range.File, P.Range.End, 0, lowerGroupEnd(), Closing,
                /*Format=*/true);
        Open = nullptr;
      }
    }
  }
}

/// Whether statement `S` ends with a `;` that its source range leaves out.
bool endsBeforeSemicolon(const Stmt *S) {
  while (true) {
    if (const auto *F = dyn_cast<ForStmt>(S))
      S = F->getBody();
    else if (const auto *W = dyn_cast<WhileStmt>(S))
      S = W->getBody();
    else if (const auto *R = dyn_cast<CXXForRangeStmt>(S))
      S = R->getBody();
    else if (const auto *If = dyn_cast<IfStmt>(S))
      S = If->getElse() ? If->getElse() : If->getThen();
    else if (const auto *Sw = dyn_cast<SwitchStmt>(S))
      S = Sw->getBody();
    else if (const auto *L = dyn_cast<LabelStmt>(S))
      S = L->getSubStmt();
    else if (const auto *A = dyn_cast<AttributedStmt>(S))
      S = A->getSubStmt();
    else
      return !isa<CompoundStmt, DeclStmt, NullStmt, CXXTryStmt>(S);
  }
}

/// The text of the first reference to `V` in `E`, as written there.
std::string spelledReference(RewriteContext &RC, const Stmt *E,
                             const VarDecl *V) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E); DRE && DRE->getDecl() == V)
    return fileText(RC.SM, RC.langOpts(), DRE->getSourceRange());
  for (const Stmt *C : E->children())
    if (C)
      if (std::string T = spelledReference(RC, C, V); !T.empty())
        return T;
  return "";
}

/// One loop that keeps data on the device, as the rewrite spells it.
struct HeldLoop {
  const ResidentLoop *Loop;
  FileRange Range; ///< the loop statement, with its `;`
  std::vector<HeldRange> Held;
  std::vector<LoopPath> Vars;
};

/// Loop residency, as the plugin's (docs/LoopResidency.md): in each function
/// body, the loops whose launches alone use some variables hold them on the
/// device (findResidentLoops). The loop is put in a block that declares an
/// ofld::bridge::loop_hold of their ranges; each launch in it that maps one
/// asks the hold once its grid is known, so the first launch that runs maps
/// them, later ones find them present (OpenMP's present table), and the
/// block's end copies back and releases them on every way out of the loop.
/// A variable that some launch of the loop passes as a reduction (folded on
/// the host after each launch), an [[offload::in]] copy or a struct of spans
/// is not held (as in launch groups), nor is anything in a loop written in a
/// macro or holding a launch written in a macro argument. Returns, per
/// launch, the variables the loops around it hold.
LoopHeldVars
rewriteResidentLoops(RewriteContext &RC,
                     ArrayRef<const FunctionDecl *> Functions,
                     std::map<const CallExpr *, PlannedCall> &Calls) {
  LoopHeldVars LoopHeld;
  const SourceManager &SM = RC.SM;
  unsigned NextId = 1;
  for (const FunctionDecl *FD : Functions) {
    auto LaunchOf = [&](const CallExpr &CE) -> std::optional<LoopLaunchInfo> {
      auto It = Calls.find(&CE);
      std::optional<LaunchedKernel> L = launchedKernel(CE);
      if (It == Calls.end() || !L)
        return std::nullopt;
      return LoopLaunchInfo{&It->second.Kernel, L->FirstArg};
    };
    std::vector<ResidentLoop> Loops =
        findResidentLoops(*FD->getBody(), RC.Ctx, LaunchOf, NextId);
    std::vector<HeldLoop> Held;
    for (const ResidentLoop &R : Loops) {
      // The formatting of the loop's block would reach a launch's text in a
      // macro argument, which must stay as written (its _Pragma strings).
      if (!R.holdsAny() || !R.Loop->getBeginLoc().isFileID() ||
          !R.Loop->getEndLoc().isFileID() ||
          any_of(R.Launches, [&](const CallExpr *CE) {
            return Calls.at(CE).Call.InMacroArgument;
          }))
        continue;
      std::optional<FileRange> FR =
          fileRange(SM, RC.langOpts(), R.Loop->getSourceRange());
      if (!FR)
        continue;
      if (endsBeforeSemicolon(R.Loop)) {
        std::optional<unsigned> Semi =
            semicolonAfter(SM, RC.langOpts(), FR->File, FR->End);
        if (!Semi)
          continue;
        FR->End = *Semi;
      }
      HeldLoop H{&R, *FR, {}, {}};
      for (const LoopVariable &V : R.Vars) {
        if (!V.Held)
          continue;
        // The parameter of the loop's first launch that maps it spells its
        // range; a launch that passes it otherwise keeps it per launch.
        const LoweredParam *First = nullptr;
        PayloadKind Kind = PayloadKind::Value;
        std::string Spelled;
        bool Refused = false;
        for (const CallExpr *CE : R.Launches) {
          const PlannedCall &P = Calls.at(CE);
          unsigned FirstArg = launchedKernel(*CE)->FirstArg;
          for (auto [I, Layout] : enumerate(P.Kernel.Params)) {
            if (Layout.Kind == PayloadKind::Value ||
                FirstArg + I >= CE->getNumArgs() ||
                heldPath(*CE->getArg(FirstArg + I)) !=
                    std::optional(LoopPath(V)))
              continue;
            const LoweredParam &LP = P.Call.Params[I];
            Refused |= !LP.Reduction.empty() || LP.Scratch ||
                       Layout.Kind == PayloadKind::Aggregate;
            if (!First) {
              First = &LP;
              Kind = Layout.Kind;
              Spelled =
                  V.Fields.empty()
                      ? spelledReference(RC, CE->getArg(FirstArg + I), V.Var)
                      : fileText(RC.SM, RC.langOpts(),
                                 mappedObject(*CE->getArg(FirstArg + I))
                                     .getSourceRange());
            }
          }
        }
        if (!First || Refused || Spelled.empty())
          continue;
        HeldRange Range;
        Range.Kind = Kind;
        Range.Map = V.Map;
        Range.Variable = Spelled;
        Range.Declarator = First->Declarator;
        Range.Argument = Spelled;
        H.Held.push_back(std::move(Range));
        H.Vars.push_back(V);
      }
      if (!H.Held.empty())
        Held.push_back(std::move(H));
    }
    auto Contains = [&](const HeldLoop &Outer, const HeldLoop &Inner) {
      return &Outer != &Inner && Outer.Range.File == Inner.Range.File &&
             Outer.Range.Begin <= Inner.Range.Begin &&
             Inner.Range.End <= Outer.Range.End;
    };
    // Inner loops first: where loops end together, the inner block closes
    // first.
    for (HeldLoop &H : llvm::reverse(Held)) {
      unsigned Depth = 0;
      for (const HeldLoop &O : Held)
        Depth += Contains(O, H);
      std::string Name = loopHoldName(Depth);
      SmallVector<std::string, 2> Watch;
      for (const LoopPath &P : H.Loop->Watch)
        Watch.push_back(P.name());
      RC.edit(H.Range.File, H.Range.Begin, 0,
              lowerLoopBegin(Name, H.Held, Watch), Opening, /*Format=*/true);
      RC.edit(H.Range.File, H.Range.End, 0, lowerLoopEnd(), Closing,
              /*Format=*/true);
      for (const CallExpr *CE : H.Loop->Launches) {
        PlannedCall &P = Calls.at(CE);
        unsigned FirstArg = launchedKernel(*CE)->FirstArg;
        bool Maps = false;
        for (auto [I, Layout] : enumerate(P.Kernel.Params))
          if (Layout.Kind != PayloadKind::Value &&
              FirstArg + I < CE->getNumArgs())
            if (std::optional<LoopPath> V = heldPath(*CE->getArg(FirstArg + I));
                V && is_contained(H.Vars, *V)) {
              Maps = true;
              // A launch group holds whole variables only.
              if (V->Fields.empty())
                LoopHeld[CE].insert(V->Var);
            }
        // Outer loops ask first (their blocks come first).
        if (Maps)
          P.Call.LoopHolds.insert(P.Call.LoopHolds.begin(), Name);
      }
    }
    for (const HeldLoop &H : Held) {
      LoopExplanation Explain;
      PresumedLoc PLoc = SM.getPresumedLoc(H.Loop->Loop->getBeginLoc());
      Explain.File = PLoc.getFilename();
      Explain.Line = PLoc.getLine();
      Explain.Column = PLoc.getColumn();
      for (const HeldRange &R : H.Held)
        Explain.Held.push_back(R.Variable + " (" + mapTypeName(R.Map).str() +
                               ")");
      RC.Result.addLoop(std::move(Explain));
    }
  }
  return LoopHeld;
}

/// Replaces each planned call with its OpenMP text.
void rewriteCalls(RewriteContext &RC,
                  const std::map<const CallExpr *, PlannedCall> &Calls) {
  for (const auto &[CE, P] : Calls)
    RC.edit(P.Range.File, P.Range.Begin, P.Range.End - P.Range.Begin,
            lowerCall(P.Call), Replacing,
            /*Format=*/!P.Call.InMacroArgument);
}

/// Every file that uses offload includes the bridge, before offload.hpp so
/// that the CPU fallback stays quiet (its offload() is no longer used).
void addBridgeIncludes(RewriteContext &RC, const IncludeMap &Includes) {
  std::set<FileID> Files = RC.editedFiles();
  for (const auto &[FID, Lines] : Includes)
    if (any_of(Lines, [](const IncludeLine &L) { return L.IsOffloadHeader; }) &&
        RC.isUserFile(RC.SM.getLocForStartOfFile(FID)))
      Files.insert(FID);
  for (FileID FID : Files) {
    auto It = Includes.find(FID);
    const std::vector<IncludeLine> Empty;
    const std::vector<IncludeLine> &Lines =
        It == Includes.end() ? Empty : It->second;
    if (any_of(Lines, [](const IncludeLine &L) { return L.IsBridge; }))
      continue;
    const IncludeLine *At = nullptr;
    for (const IncludeLine &L : Lines)
      if (L.IsOffloadHeader) {
        At = &L;
        break;
      }
    if (!At && !Lines.empty())
      At = &Lines.front();
    RC.edit(FID, At ? At->Offset : 0, 0, bridgeInclude(At ? At->Angled : true),
            Replacing);
  }
}

//===----------------------------------------------------------------------===//
// The walk: the plugin's checks, in its order, and the edits of each call.
//===----------------------------------------------------------------------===//

/// Whether `FD` has a parameter with [[offload::out]] or [[offload::in]]
/// written on it.
bool hasOutParam(const FunctionDecl &FD) {
  return any_of(FD.parameters(), [](const ParmVarDecl *P) {
    return isOutParam(*P) || isInParam(*P);
  });
}

/// Checks the kernels and calls of the user's files as the plugin does and
/// replaces each call. Instantiations are walked for their calls only: the
/// plugin checks a dependent call in every instantiation, and so does the
/// rewriter (the text it rewrites is the template's).
class RewriteWalker final : public CallWalker {
public:
  /// `CheckOnly`: the translation unit does not compile; it is checked, as
  /// the plugin checks it, so that every error comes out in one run, and
  /// never rewritten (its AST is not the program).
  RewriteWalker(RewriteContext &RC, RewriteResult &Result, Sema *S,
                UnresolvedLaunchFilter &Unresolved, bool CheckOnly)
      : CallWalker(RC.Ctx, RC.Diags, /*VisitInstantiations=*/true), RC(RC),
        Result(Result), SemaRef(S), Unresolved(Unresolved),
        CheckOnly(CheckOnly) {}

  /// Walks the translation unit; then, as the plugin does once it is
  /// complete, checks the kernel bodies and the launches that leave the
  /// grid to a bound. Returns the calls replaced.
  std::map<const CallExpr *, PlannedCall> run();

  /// Every kernel declared or launched, for the body checks.
  const std::vector<const FunctionDecl *> &kernels() const { return Kernels; }
  /// The function bodies whose calls are rewritten, for loop residency.
  ArrayRef<const FunctionDecl *> functions() const {
    return Functions.getArrayRef();
  }

private:
  void kernelFound(FunctionDecl &FD) override;
  void functionFound(FunctionDecl &FD) override;
  void callFound(CallExpr &CE, FunctionDecl *Enclosing, CallKind Kind) override;
  void unresolvedFound(RecoveryExpr &RE) override {
    if (SemaRef)
      diagnoseUnresolvedLaunch(*SemaRef, Unresolved, RE);
  }

  std::optional<CheckedCall> check(const CallExpr &CE,
                                   const FunctionDecl *Enclosing);
  void rewrite(const CallExpr &CE, const CheckedCall &C);
  KernelInputs inputsOf(const CallExpr &CE, const FunctionDecl &K);
  const BoundAnalysis *boundOf(const FunctionDecl *K);

  RewriteContext &RC;
  RewriteResult &Result;
  Sema *SemaRef;
  UnresolvedLaunchFilter &Unresolved;
  const bool CheckOnly;
  std::vector<const FunctionDecl *> Kernels;
  SetVector<const FunctionDecl *> Functions;
  std::map<const CallExpr *, PlannedCall> Planned;
  SmallPtrSet<const CallExpr *, 4> ConstWarned;
  /// The calls that leave the grid to the kernel's bound, checked as the
  /// plugin checks them: once every kernel body has been checked.
  std::vector<std::pair<const CallExpr *, const FunctionDecl *>> DefaultShapes;
  /// Per kernel, read once: whether it synchronises and --explain's size
  /// expressions (by first declaration), what its bounds check admits (by
  /// the declaration the calls name).
  /// Whether it synchronises, whether it calls warp functions.
  std::map<const FunctionDecl *, std::pair<bool, bool>> Syncs;
  std::map<const FunctionDecl *, std::optional<BoundAnalysis>> Bounds;
  std::map<const FunctionDecl *, std::vector<std::string>> Sizes;
};

void RewriteWalker::kernelFound(FunctionDecl &FD) {
  if (!RC.isUserFile(FD.getLocation()))
    return;
  Kernels.push_back(&FD);
  checkOutParams(FD, RC.Diags);
  // Templates are checked per specialisation, at their calls.
  if (!FD.isDependentContext())
    kernel(FD, FD.doesThisDeclarationHaveABody());
  if (!CheckOnly && !inDeclareTarget(FD) && !FD.isTemplateInstantiation() &&
      !wrapInDeclareTarget(RC, FD))
    report(RC.Diags, FD.getLocation(), DiagId::RewriteKernelAcrossMacros)
        << &FD;
}

void RewriteWalker::functionFound(FunctionDecl &FD) {
  if (!RC.isUserFile(FD.getLocation()))
    return;
  if (hasOutParam(FD))
    checkOutParams(FD, RC.Diags);
  if (FD.isDependentContext() || !FD.doesThisDeclarationHaveABody())
    return;
  // Instantiations' calls are not rewritten (their text is the template's).
  if (!CheckOnly && !FD.isTemplateInstantiation() && FD.getBody())
    Functions.insert(&FD);
  // Writes into a region's read-only ranges, where the region and the
  // launch are in one function: the plugin's warning; the call's site says
  // so, so that the bridge does not warn again at run time.
  checkRegionConstness(
      *FD.getBody(), RC.Ctx, RC.Diags,
      [&](const CallExpr &CE) -> std::optional<LaunchInfo> {
        std::optional<LaunchedKernel> L = launchedKernel(CE);
        if (!L)
          return std::nullopt;
        const KernelFacts *Facts = kernel(*L->Kernel, /*Needed=*/false);
        if (!Facts)
          return std::nullopt;
        return LaunchInfo{L->Kernel, &Facts->Desc, L->FirstArg};
      },
      ConstWarned);
}

void RewriteWalker::callFound(CallExpr &CE, FunctionDecl *Enclosing,
                              CallKind Kind) {
  if (!RC.isUserFile(CE.getBeginLoc()))
    return;
  switch (Kind) {
  case CallKind::Written:
    if (std::optional<CheckedCall> C = check(CE, Enclosing); C && !CheckOnly)
      rewrite(CE, *C);
    return;
  case CallKind::Dependent:
    // Left as it is: it runs on the CPU, through offload.hpp's fallback.
    if (!CheckOnly) {
      report(RC.Diags, CE.getExprLoc(), DiagId::RewriteCallDependent);
      RC.needsBridge(RC.SM.getFileID(RC.SM.getFileLoc(CE.getBeginLoc())));
    }
    return;
  case CallKind::Instantiated:
    check(CE, Enclosing);
    return;
  }
}

/// Checks a call and notes it where it leaves the grid to the bound.
std::optional<CheckedCall> RewriteWalker::check(const CallExpr &CE,
                                                const FunctionDecl *Enclosing) {
  std::optional<CheckedCall> C = checkCall(
      RC, CE, Enclosing,
      [&](const FunctionDecl &K, bool Needed) {
        return kernel(K, Needed) != nullptr;
      },
      Kernels);
  if (C && leavesGridUnset(C->KernelArg ? CE.getArg(0) : nullptr))
    DefaultShapes.emplace_back(&CE, C->Kernel);
  return C;
}

/// The bound a call's text may spell: the kernel's definition must be in
/// the call's file or before the call. A call in a header is rewritten once
/// for every translation unit that includes it, and each must spell it
/// alike: one whose kernel a later file of one includer defines gets none,
/// as in the includers that do not define it (its launch must give a grid).
const LaunchBound *spelledBound(const SourceManager &SM, const CallExpr &CE,
                                const FunctionDecl &Kernel,
                                const BoundAnalysis *Bound) {
  const FunctionDecl *Def = Kernel.getDefinition();
  if (!Bound || !Def)
    return nullptr;
  SourceLocation At = SM.getFileLoc(CE.getBeginLoc());
  SourceLocation DefAt = SM.getFileLoc(Def->getLocation());
  if (SM.getFileID(At) == SM.getFileID(DefAt) ||
      SM.isBeforeInTranslationUnit(DefAt, At))
    return &Bound->Bound;
  return nullptr;
}

/// What each kernel's bounds check admits, read once from its definition.
const BoundAnalysis *RewriteWalker::boundOf(const FunctionDecl *K) {
  auto [It, New] = Bounds.try_emplace(K);
  if (New)
    It->second = analyseLaunchBound(*K, RC.Ctx);
  return It->second ? &*It->second : nullptr;
}

KernelInputs RewriteWalker::inputsOf(const CallExpr &CE,
                                     const FunctionDecl &K) {
  const FunctionDecl *First = K.getCanonicalDecl();
  KernelInputs In;
  In.Facts = kernel(K);
  auto [Sync, NewSync] = Syncs.try_emplace(First);
  if (NewSync) {
    DeviceCode Code = findDeviceCode(RC.Ctx, {&K});
    Sync->second = {Code.Synchronises.lookup(First),
                    Code.WarpLevel.lookup(First)};
  }
  In.Syncs = Sync->second.first;
  In.Warp = Sync->second.second;
  auto [Size, NewSize] = Sizes.try_emplace(First);
  if (NewSize)
    Size->second = explainedSizes(RC.Ctx, K, *In.Facts);
  In.Sizes = Size->second;
  In.Bound = spelledBound(RC.SM, CE, K, boundOf(&K));
  return In;
}

/// Plans the OpenMP text of a checked call (rewriteCalls puts it in place
/// once the loops around it are known).
void RewriteWalker::rewrite(const CallExpr &CE, const CheckedCall &C) {
  std::optional<PlannedCall> P = planCall(RC, CE, C, inputsOf(CE, *C.Kernel));
  if (!P)
    return;
  P->Call.WarnedConst = ConstWarned.count(&CE);
  std::string Text = lowerCall(P->Call);
  if (P->Call.InMacroArgument && hasTopLevelComma(Text)) {
    report(RC.Diags, RC.SM.getFileLoc(CE.getBeginLoc()),
           DiagId::RewriteMacroComma);
    return;
  }
  Result.addCall(P->Explain);
  Planned.emplace(&CE, std::move(*P));
}

std::map<const CallExpr *, PlannedCall> RewriteWalker::run() {
  walk(RC.Ctx.getTranslationUnitDecl());
  Unresolved.release();
  // Instantiations come last, where the plugin sees implicit ones (at the
  // end of the translation unit).
  handOutInstantiatedCalls();
  // What the kernels (and the functions they call) do, as the plugin checks
  // it once the translation unit is complete; then, as the plugin, the
  // launches without a grid of the kernels defined here that read an index
  // under no bound (what the output cannot spell, the bridge refuses when
  // it runs).
  checkKernelBodies(RC.Ctx, RC.Diags, Kernels);
  for (auto [CE, K] : DefaultShapes)
    if (const BoundAnalysis *Bound = boundOf(K))
      checkDefaultShape(RC.Diags, *CE, *K, *Bound);
  return std::move(Planned);
}

//===----------------------------------------------------------------------===//
// The consumer.
//===----------------------------------------------------------------------===//

class RewriteConsumer : public ASTConsumer {
public:
  RewriteConsumer(RewriteResult &Result, const RewriteOptions &Opts,
                  std::shared_ptr<IncludeMap> Inc, CompilerInstance &CI,
                  UnresolvedLaunchFilter &Unresolved)
      : Result(Result), Opts(Opts), Includes(std::move(Inc)), CI(CI),
        Unresolved(Unresolved) {}

  void HandleTranslationUnit(ASTContext &Context) override;

private:
  RewriteResult &Result;
  const RewriteOptions &Opts;
  std::shared_ptr<IncludeMap> Includes;
  CompilerInstance &CI;
  UnresolvedLaunchFilter &Unresolved;
};

/// What OpenMP compilers need besides the kernels: the tables the device
/// code reads, span parameters g++ accepts, shared arrays it can tell apart.
void rewriteDeviceCode(RewriteContext &RC,
                       ArrayRef<const FunctionDecl *> Kernels) {
  DeviceCode Device = findDeviceCode(RC.Ctx, Kernels);
  for (const VarDecl *VD : Device.Globals)
    wrapRedeclarations(RC, *VD);
  for (const CXXRecordDecl *RD : Device.Classes)
    wrapClass(RC, *RD);
  for (const FunctionDecl *FD : Device.Functions) {
    respellSpanParams(RC, *FD);
    respellSpanStructParams(RC, *FD);
  }
  for (const FunctionDecl *K : Kernels)
    if (!K->isDependentContext() && !K->isTemplateInstantiation())
      respellValueParams(RC, *K);
  nameStaticMembers(RC, Device.StaticMembers.getArrayRef());
  tagSharedArrays(RC, Device.UntaggedSharedArrays.getArrayRef());
}

/// Finds the `ofld::region` variables of the user's code.
class RegionFinder : public RecursiveASTVisitor<RegionFinder> {
public:
  bool shouldVisitTemplateInstantiations() const { return false; }
  bool VisitVarDecl(VarDecl *VD) {
    const auto *RD = VD->getType()->getAsCXXRecordDecl();
    const auto *NS =
        RD ? dyn_cast<NamespaceDecl>(RD->getDeclContext()) : nullptr;
    if (RD && RD->getIdentifier() && RD->getName() == "region" && NS &&
        NS->getIdentifier() && NS->getName() == "ofld" && VD->getInit())
      Regions.push_back(VD);
    return true;
  }
  /// `r.update_from(x)` / `r.update_to(x)` of a region.
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *CE) {
    const CXXMethodDecl *M = CE->getMethodDecl();
    const CXXRecordDecl *RD = M ? M->getParent() : nullptr;
    const auto *NS =
        RD ? dyn_cast<NamespaceDecl>(RD->getDeclContext()) : nullptr;
    if (RD && RD->getIdentifier() && RD->getName() == "region" && NS &&
        NS->getIdentifier() && NS->getName() == "ofld" && M->getIdentifier() &&
        (M->getName() == "update_from" || M->getName() == "update_to") &&
        CE->getNumArgs() >= 1)
      Updates.push_back(CE);
    return true;
  }
  std::vector<const VarDecl *> Regions;
  std::vector<const CXXMemberCallExpr *> Updates;
};

/// Whether `RD` is one of offload's own classes (ofld::out_span holds a
/// span, which the region maps by its own rule).
bool isOffloadClass(const CXXRecordDecl *RD) {
  for (const DeclContext *DC = RD; DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC);
        NS && NS->getIdentifier() && NS->getName() == "ofld")
      return true;
  return false;
}

/// Text without blanks, to compare two spellings of one expression.
std::string squeezed(StringRef Text) {
  std::string Out;
  for (char C : Text)
    if (!isSpace(C))
      Out += C;
  return Out;
}

/// `ofld::region r{s}` with `s` a struct of spans maps the struct's bytes
/// only, and the rewritten launches inside map its span fields themselves:
/// each span field the region's arguments do not name yet is added after
/// the struct (`r{s, s.grid.energy, ofld::out(s.result)}`), with the map
/// its span row gives (the header's region takes spans and ofld::out), so
/// that the launches find every field present. A field that is not public,
/// or an argument with side effects, is left as it is.
void rewriteRegions(RewriteContext &RC) {
  const SourceManager &SM = RC.SM;
  RegionFinder Finder;
  Finder.TraverseDecl(RC.Ctx.getTranslationUnitDecl());
  for (const VarDecl *VD : Finder.Regions) {
    if (!RC.isUserFile(VD->getLocation()))
      continue;
    const auto *Init =
        dyn_cast<CXXConstructExpr>(VD->getInit()->IgnoreImplicit());
    if (!Init)
      continue;
    std::vector<std::string> Written;
    for (const Expr *Arg : Init->arguments())
      if (!isa<CXXDefaultArgExpr>(Arg))
        Written.push_back(
            squeezed(fileText(SM, RC.langOpts(), Arg->getSourceRange())));
    for (const Expr *Arg : Init->arguments()) {
      const Expr *Object = Arg->IgnoreImplicit();
      const CXXRecordDecl *Class =
          Object->getType().getNonReferenceType()->getAsCXXRecordDecl();
      if (isa<CXXDefaultArgExpr>(Arg) || Object->isTypeDependent() || !Class ||
          isOffloadClass(Class) || Object->HasSideEffects(RC.Ctx) ||
          !Object->getBeginLoc().isFileID())
        continue;
      std::optional<FileRange> FR =
          fileRange(SM, RC.langOpts(), Object->getSourceRange());
      if (!FR)
        continue;
      std::string Text = fileText(SM, RC.langOpts(), Object->getSourceRange());
      if (!isa<DeclRefExpr, MemberExpr>(Object->IgnoreParens()))
        Text = "(" + Text + ")";
      std::string Added;
      std::optional<ParamRule> Rule =
          spanFieldsOf(Object->getType().getNonReferenceType(), RC.Ctx, "");
      for (const FieldPlan &F :
           Rule ? Rule->Fields : llvm::SmallVector<FieldPlan, 0>()) {
        if (!F.Public)
          continue;
        std::string Field = Text + "." + F.Access;
        if (F.Row == RuleId::OutSpan)
          Field = "ofld::out(" + Field + ")";
        if (llvm::is_contained(Written, squeezed(Field)))
          continue;
        Written.push_back(squeezed(Field));
        Added += ", " + Field;
      }
      if (!Added.empty())
        RC.edit(FR->File, FR->End, 0, Added, Replacing);
    }
  }
  // `r.update_from(s)` copies the struct's bytes only in the bridge: each
  // public span field follows (`r.update_from(s), r.update_from(s.acc)`),
  // unless a rewrite already added them.
  for (const CXXMemberCallExpr *CE : Finder.Updates) {
    const Expr *Object = CE->getArg(0)->IgnoreImplicit();
    const Expr *Region = CE->getImplicitObjectArgument();
    if (!RC.isUserFile(CE->getBeginLoc()) || !Region ||
        Object->isTypeDependent() || Object->HasSideEffects(RC.Ctx) ||
        Region->HasSideEffects(RC.Ctx) || !CE->getBeginLoc().isFileID())
      continue;
    std::optional<ParamRule> Rule =
        spanFieldsOf(Object->getType().getNonReferenceType(), RC.Ctx, "");
    std::optional<FileRange> FR =
        fileRange(SM, RC.langOpts(), CE->getSourceRange());
    if (!Rule || !FR)
      continue;
    std::string Text = fileText(SM, RC.langOpts(), Object->getSourceRange());
    if (!isa<DeclRefExpr, MemberExpr>(Object->IgnoreParens()))
      Text = "(" + Text + ")";
    std::string Call = fileText(SM, RC.langOpts(), Region->getSourceRange()) +
                       "." + CE->getMethodDecl()->getName().str();
    std::string Added;
    for (const FieldPlan &F : Rule->Fields)
      if (F.Public)
        Added += ", " + Call + "(" + Text + "." + F.Access + ")";
    llvm::StringRef After = SM.getBufferData(FR->File).substr(FR->End);
    if (Added.empty() || squeezed(After).rfind(squeezed(Added), 0) == 0)
      continue;
    RC.edit(FR->File, FR->End, 0, Added, Replacing);
  }
}

void RewriteConsumer::HandleTranslationUnit(ASTContext &Context) {
  RewriteContext RC(Context, Result, Opts);
  const bool CheckOnly = RC.Diags.hasErrorOccurred();
  if (CheckOnly)
    Result.setFailed();
  RewriteWalker Walker(RC, Result, CI.hasSema() ? &CI.getSema() : nullptr,
                       Unresolved, CheckOnly);
  std::map<const CallExpr *, PlannedCall> Planned = Walker.run();
  if (RC.Diags.hasErrorOccurred()) {
    Result.setFailed();
    return;
  }
  LoopHeldVars LoopHeld;
  if (Opts.LoopResidency)
    LoopHeld = rewriteResidentLoops(RC, Walker.functions(), Planned);
  rewriteLaunchGroups(RC, Planned, LoopHeld);
  rewriteCalls(RC, Planned);
  rewriteRegions(RC);
  rewriteDeviceCode(RC, Walker.kernels());
  addBridgeIncludes(RC, *Includes);
  if (RC.Diags.hasErrorOccurred())
    Result.setFailed();
}

class RewriteAction : public ASTFrontendAction {
public:
  RewriteAction(RewriteResult &Result, const RewriteOptions &Opts)
      : Result(Result), Opts(Opts) {}

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    auto Includes = std::make_shared<IncludeMap>();
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<IncludeRecorder>(CI.getSourceManager(), *Includes));
    // The same words as the plugin's for calls clang cannot resolve.
    UnresolvedLaunchFilter &Unresolved = UnresolvedLaunchFilter::install(
        CI.getDiagnostics(), CI.getDiagnosticOpts().ErrorLimit);
    return std::make_unique<RewriteConsumer>(Result, Opts, Includes, CI,
                                             Unresolved);
  }

private:
  RewriteResult &Result;
  const RewriteOptions &Opts;
};

class RewriteActionFactory : public tooling::FrontendActionFactory {
public:
  RewriteActionFactory(RewriteResult &Result, RewriteOptions Opts)
      : Result(Result), Opts(std::move(Opts)) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<RewriteAction>(Result, Opts);
  }

private:
  RewriteResult &Result;
  RewriteOptions Opts;
};

} // namespace

std::unique_ptr<tooling::FrontendActionFactory>
newRewriteActionFactory(RewriteResult &Result, const RewriteOptions &Opts) {
  // The attributes must be registered for kernels to be found.
  linkKernelAttributes();
  return std::make_unique<RewriteActionFactory>(Result, Opts);
}

} // namespace rewrite
} // namespace offload
