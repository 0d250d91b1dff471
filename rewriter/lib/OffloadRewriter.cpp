//===- OffloadRewriter.cpp - offload() sources to standard OpenMP ---------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Finds the kernels and offload() calls of a translation unit, checks them
// exactly as the plugin does (the transfer table, the attributes, the calls,
// launch shapes and kernel bodies: the same code, in the plugin's order), and
// records the edits that turn them into OpenMP (see Lowering.h for the text).
//
//===----------------------------------------------------------------------===//

#include "offload/Rewriter.h"

#include "Diagnostics.h"
#include "KernelAttributes.h"
#include "KernelBodyChecks.h"
#include "Lowering.h"
#include "TransferRules.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <map>
#include <set>

using namespace clang;
using namespace llvm;

#ifndef OFFLOAD_SHIM_INCLUDE_DIR
#define OFFLOAD_SHIM_INCLUDE_DIR ""
#endif
#ifndef OFFLOAD_CLANG_RESOURCE_DIR
#define OFFLOAD_CLANG_RESOURCE_DIR ""
#endif

namespace offload {
namespace rewrite {

RewriteOptions defaultRewriteOptions() {
  RewriteOptions Opts;
  Opts.ShimIncludeDir = OFFLOAD_SHIM_INCLUDE_DIR;
  if (sys::fs::is_directory(OFFLOAD_CLANG_RESOURCE_DIR))
    Opts.ResourceDir = OFFLOAD_CLANG_RESOURCE_DIR;
  return Opts;
}

tooling::ArgumentsAdjuster
getRewriteArgumentsAdjuster(const RewriteOptions &Opts) {
  return [Opts](const tooling::CommandLineArguments &Args, StringRef) {
    tooling::CommandLineArguments Out;
    bool HasResourceDir = false;
    // The offload targets, for the checks that depend on them (a GPU's
    // threads per block), as the plugin sees them in the host compile.
    SmallVector<std::string, 2> Targets;
    auto AddTargets = [&](StringRef List, bool Arches) {
      SmallVector<StringRef, 4> Items;
      List.split(Items, ',', -1, /*KeepEmpty=*/false);
      for (StringRef T : Items) {
        std::string Triple = T.str();
        if (Arches)
          Triple = T.starts_with("sm_")   ? "nvptx64-nvidia-cuda"
                   : T.starts_with("gfx") ? "amdgcn-amd-amdhsa"
                                          : "";
        if (!Triple.empty() && !llvm::is_contained(Targets, Triple))
          Targets.push_back(Triple);
      }
    };
    for (size_t I = 0; I < Args.size(); ++I) {
      StringRef A = Args[I];
      if (StringRef V = A; V.consume_front("-fopenmp-targets="))
        AddTargets(V, /*Arches=*/false);
      if (StringRef V = A; V.consume_front("--offload-arch="))
        AddTargets(V, /*Arches=*/true);
      if (A == "--offload-arch" && I + 1 < Args.size())
        AddTargets(Args[I + 1], /*Arches=*/true);
      // The plugin itself and device compilations: the rewriter parses the
      // host side once, and sees offload() as the plugin does (below).
      if (A.starts_with("-fplugin") || A.starts_with("-fpass-plugin=") ||
          A == "-fopenmp" || A.starts_with("-fopenmp=") ||
          A.starts_with("-fopenmp-targets") ||
          A.starts_with("-fopenmp-offload") || A.starts_with("-fopenmp-cuda") ||
          A.starts_with("--offload-arch") || A.starts_with("--offload-") ||
          A.starts_with("--cuda-path") || A == "-nogpulib" ||
          A.starts_with("-Xopenmp-target=") || A.starts_with("-Xarch_device") ||
          A.starts_with("-Xoffload-linker"))
        continue;
      // The spellings that take their value as the next argument.
      if (A == "-Xopenmp-target" || A == "--offload-arch" ||
          A == "--cuda-path" || A == "-Xarch_device" ||
          A == "-Xoffload-linker") {
        ++I;
        continue;
      }
      if (A == "-Xclang" && I + 1 < Args.size()) {
        StringRef B = Args[I + 1];
        if (B == "-load" || B == "-add-plugin" || B == "-plugin") {
          I += 3; // -Xclang -load -Xclang <lib>
          continue;
        }
        if (B.starts_with("-plugin-arg-")) {
          I += 3;
          continue;
        }
      }
      if (A.starts_with("-resource-dir"))
        HasResourceDir = true;
      Out.push_back(Args[I]);
    }
    tooling::CommandLineArguments Extra;
    Extra.push_back("-fopenmp");
    // Parse as the plugin does: offload() is only declared, so the CPU
    // fallback's templates are not instantiated, and the calls look exactly
    // as the plugin checks them.
    Extra.push_back("-D__OFFLOAD_PLUGIN__=1");
    Extra.push_back("-DOFFLOAD_QUIET_CPU_FALLBACK=1");
    Extra.push_back("-UOFFLOAD_REQUIRE_PLUGIN");
    if (!Opts.ShimIncludeDir.empty()) {
      Extra.push_back("-idirafter");
      Extra.push_back(Opts.ShimIncludeDir);
    }
    if (!HasResourceDir && !Opts.ResourceDir.empty())
      Extra.push_back("-resource-dir=" + Opts.ResourceDir);
    // Past the driver, which would otherwise plan device compilations.
    if (!Targets.empty()) {
      Extra.push_back("-Xclang");
      Extra.push_back("-fopenmp-targets=" + llvm::join(Targets, ","));
    }
    // After the command's own flags (so that -U wins over its -D), but
    // before a `--` that ends them (interpolated commands have one).
    auto End = llvm::find(Out, "--");
    Out.insert(End, Extra.begin(), Extra.end());
    return Out;
  };
}

namespace {

//===----------------------------------------------------------------------===//
// Text helpers over a file buffer.
//===----------------------------------------------------------------------===//

size_t lineStart(StringRef Buf, size_t Off) {
  size_t NL = Buf.rfind('\n', Off); // the last one before Off
  return NL == StringRef::npos ? 0 : NL + 1;
}

bool isBlank(StringRef S) {
  return llvm::all_of(S, [](char C) { return C == ' ' || C == '\t'; });
}

/// Skips spaces, newlines and comments from `Off`.
size_t skipSpaceAndComments(StringRef Buf, size_t Off) {
  while (Off < Buf.size()) {
    if (isSpace(Buf[Off])) {
      ++Off;
    } else if (Buf.substr(Off).starts_with("//")) {
      size_t NL = Buf.find('\n', Off);
      Off = NL == StringRef::npos ? Buf.size() : NL + 1;
    } else if (Buf.substr(Off).starts_with("/*")) {
      size_t End = Buf.find("*/", Off + 2);
      Off = End == StringRef::npos ? Buf.size() : End + 2;
    } else {
      break;
    }
  }
  return Off;
}

/// An attribute's location names the attribute, not the `[[` or
/// `__attribute__((` that opens its list; step back over those.
size_t skipBackOverAttributeOpeners(StringRef Buf, size_t Off) {
  for (;;) {
    StringRef Before = Buf.take_front(Off).rtrim();
    if (Before.ends_with("[[")) {
      Off = Before.size() - 2;
      continue;
    }
    StringRef Inner = Before;
    if (Inner.consume_back("(") && (Inner = Inner.rtrim()).consume_back("(") &&
        (Inner = Inner.rtrim()).ends_with("__attribute__")) {
      Off = Inner.size() - strlen("__attribute__");
      continue;
    }
    return Off;
  }
}

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
    Out[FID].push_back({unsigned(lineStart(Buf, Off)), IsAngled,
                        Name == "offload.hpp", Name == "omp_bridge.hpp"});
  }

private:
  const SourceManager &SM;
  IncludeMap &Out;
};

//===----------------------------------------------------------------------===//
// Finding kernels and calls.
//===----------------------------------------------------------------------===//

/// Whether `FD` is one of the offload() entry points of offload.hpp.
bool isOffloadEntry(const FunctionDecl &FD) {
  return FD.getDeclName().isIdentifier() && FD.getName() == "offload" &&
         FD.getDeclContext()->getRedeclContext()->isTranslationUnit() &&
         (FD.getPrimaryTemplate() || FD.getDescribedFunctionTemplate());
}

/// The kernels and calls of a translation unit, in source order, so that
/// diagnostics come out in the order the plugin gives them.
struct Item {
  enum Kind {
    Kernel,           ///< a kernel declaration as written
    Function,         ///< another function with [[offload::out]] parameters
    Call,             ///< an offload() call as written (rewritten)
    DependentCall,    ///< a call in a template, dependent (refused)
    InstantiatedCall, ///< that call in an instantiation (checked only)
  } K;
  const FunctionDecl *FD = nullptr;
  const CallExpr *CE = nullptr;
};

/// Whether `FD` has a parameter with [[offload::out]] written on it.
bool hasOutParam(const FunctionDecl &FD) {
  return llvm::any_of(FD.parameters(),
                      [](const ParmVarDecl *P) { return isOutParam(*P); });
}

class Finder : public RecursiveASTVisitor<Finder> {
public:
  using Base = RecursiveASTVisitor<Finder>;
  std::vector<Item> Items;

  /// Instantiations are visited for their calls only: the plugin checks a
  /// dependent call in every instantiation, and so does the rewriter (the
  /// text it rewrites is the template's).
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(Decl *D) {
    const auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    bool Inst = FD && FD->getTemplateInstantiationPattern();
    InInstantiation += Inst;
    bool R = Base::TraverseDecl(D);
    InInstantiation -= Inst;
    return R;
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (InInstantiation)
      return true;
    if (isKernel(*FD))
      Items.push_back({Item::Kernel, FD, nullptr});
    else if (hasOutParam(*FD))
      Items.push_back({Item::Function, FD, nullptr});
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) {
    if (const FunctionDecl *Callee = CE->getDirectCallee()) {
      if (isOffloadEntry(*Callee))
        Items.push_back({InInstantiation ? Item::InstantiatedCall : Item::Call,
                         nullptr, CE});
      return true;
    }
    // In a template, a call with dependent arguments stays unresolved.
    if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(
            CE->getCallee()->IgnoreParenImpCasts()))
      if (ULE->getName().isIdentifier() &&
          ULE->getName().getAsIdentifierInfo()->getName() == "offload" &&
          llvm::any_of(ULE->decls(), [](const NamedDecl *D) {
            const auto *FD = D->getAsFunction();
            return FD && isOffloadEntry(*FD);
          }))
        Items.push_back({Item::DependentCall, nullptr, CE});
    return true;
  }

private:
  unsigned InInstantiation = 0;
};

//===----------------------------------------------------------------------===//
// The consumer.
//===----------------------------------------------------------------------===//

class RewriteConsumer : public ASTConsumer {
public:
  RewriteConsumer(RewriteResult &Result, const RewriteOptions &Opts,
                  std::shared_ptr<IncludeMap> Inc)
      : Result(Result), Opts(Opts), Includes(std::move(Inc)) {}

  void HandleTranslationUnit(ASTContext &Context) override;

private:
  RewriteResult &Result;
  const RewriteOptions &Opts;
  std::shared_ptr<IncludeMap> Includes;

  ASTContext *Ctx = nullptr;
  SourceManager *SM = nullptr;
  DiagnosticsEngine *Diags = nullptr;
  std::string ShimDir;
  std::map<FileID, std::string> Paths;
  std::set<FileID> EditedFiles;
  std::map<const FunctionDecl *, bool> CheckedKernels;
  /// Every kernel declared or launched, for the body checks.
  std::vector<const FunctionDecl *> Kernels;

  const LangOptions &langOpts() const { return Ctx->getLangOpts(); }
  std::string filePath(FileID FID);
  bool isUserFile(SourceLocation Loc);
  void edit(FileID FID, unsigned Offset, unsigned Length, StringRef Text,
            unsigned Rank);
  std::optional<std::pair<FileID, std::pair<unsigned, unsigned>>>
  fileRange(SourceRange R);
  std::string fileText(SourceRange R);

  bool checkKernel(const FunctionDecl &K, bool Needed = true);
  void wrapKernel(const FunctionDecl &FD);
  const FunctionDecl *checkCall(const CallExpr &CE, unsigned &NumArgs);
  void rewriteCall(const CallExpr &CE);
  const FunctionDecl *enclosingFunction(const Stmt &S);
  const Stmt *statementParent(const CallExpr &CE);
  bool canSpell(QualType T);
  std::string declarator(QualType T, StringRef Name);
  void addBridgeIncludes();
};

std::string RewriteConsumer::filePath(FileID FID) {
  auto It = Paths.find(FID);
  if (It != Paths.end())
    return It->second;
  std::string Path;
  if (OptionalFileEntryRef FE = SM->getFileEntryRefForID(FID)) {
    Path = SM->getFileManager().getCanonicalName(*FE).str();
    if (Path.empty()) {
      SmallString<256> P(FE->getName());
      SM->getFileManager().makeAbsolutePath(P);
      sys::path::remove_dots(P, true);
      Path = P.str().str();
    }
  }
  return Paths[FID] = Path;
}

bool RewriteConsumer::isUserFile(SourceLocation Loc) {
  Loc = SM->getFileLoc(Loc);
  if (Loc.isInvalid() || SM->isInSystemHeader(Loc))
    return false;
  std::string Path = filePath(SM->getFileID(Loc));
  if (Path.empty())
    return false;
  // offload.hpp itself (and the bridge) are never rewritten.
  return ShimDir.empty() || !StringRef(Path).starts_with(ShimDir);
}

void RewriteConsumer::edit(FileID FID, unsigned Offset, unsigned Length,
                           StringRef Text, unsigned Rank) {
  Result.addEdit(filePath(FID), Offset, Length, Text, Rank);
  EditedFiles.insert(FID);
}

/// The file range of `R` (tokens included): spelled in one file, or inside
/// one macro argument.
std::optional<std::pair<FileID, std::pair<unsigned, unsigned>>>
RewriteConsumer::fileRange(SourceRange R) {
  CharSourceRange CR = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(R), *SM, langOpts());
  if (CR.isInvalid())
    return std::nullopt;
  auto [FID, Begin] = SM->getDecomposedLoc(CR.getBegin());
  auto [EndFID, End] = SM->getDecomposedLoc(CR.getEnd());
  if (FID != EndFID || End < Begin)
    return std::nullopt;
  return std::make_pair(FID, std::make_pair(Begin, End));
}

std::string RewriteConsumer::fileText(SourceRange R) {
  auto FR = fileRange(R);
  if (!FR)
    return "";
  auto [Begin, End] = FR->second;
  return SM->getBufferData(FR->first).slice(Begin, End).str();
}

void RewriteConsumer::HandleTranslationUnit(ASTContext &Context) {
  Ctx = &Context;
  SM = &Context.getSourceManager();
  Diags = &Context.getDiagnostics();
  // A translation unit that does not compile is never rewritten: its AST is
  // not the program. It is still checked, as the plugin checks it, so that
  // every error comes out in one run.
  bool CheckOnly = Diags->hasErrorOccurred();
  if (CheckOnly)
    Result.setFailed();
  if (!Opts.ShimIncludeDir.empty()) {
    SmallString<256> Real;
    if (!sys::fs::real_path(Opts.ShimIncludeDir, Real))
      ShimDir = (Real + "/").str();
  }

  Finder F;
  F.TraverseDecl(Context.getTranslationUnitDecl());
  // A call that is not dependent in its template is the same call in every
  // instantiation: it is checked (and rewritten) once, as written.
  std::set<SourceLocation> Written;
  for (const Item &I : F.Items) {
    switch (I.K) {
    case Item::Kernel:
      if (!isUserFile(I.FD->getLocation()))
        break;
      Kernels.push_back(I.FD);
      checkOutParams(*I.FD, *Diags);
      // Templates are checked per specialisation, at their calls.
      if (!I.FD->isDependentContext())
        checkKernel(*I.FD, I.FD->doesThisDeclarationHaveABody());
      if (!CheckOnly)
        wrapKernel(*I.FD);
      break;
    case Item::Function:
      if (isUserFile(I.FD->getLocation()))
        checkOutParams(*I.FD, *Diags);
      break;
    case Item::Call:
      Written.insert(I.CE->getBeginLoc());
      if (!isUserFile(I.CE->getBeginLoc()))
        break;
      if (CheckOnly) {
        unsigned NumArgs;
        checkCall(*I.CE, NumArgs);
      } else {
        rewriteCall(*I.CE);
      }
      break;
    case Item::DependentCall:
      // What the rewriter cannot spell matters only where it would write.
      if (!CheckOnly && isUserFile(I.CE->getBeginLoc()))
        report(*Diags, I.CE->getExprLoc(), DiagId::RewriteCallDependent);
      break;
    case Item::InstantiatedCall:
      break;
    }
  }
  // Instantiations come last, where the plugin sees implicit ones (at the
  // end of the translation unit).
  for (const Item &I : F.Items) {
    unsigned NumArgs;
    if (I.K == Item::InstantiatedCall && !Written.count(I.CE->getBeginLoc()) &&
        isUserFile(I.CE->getBeginLoc()))
      checkCall(*I.CE, NumArgs);
  }
  if (!CheckOnly)
    addBridgeIncludes();
  // What the kernels (and the functions they call) do, as the plugin checks
  // it once the translation unit is complete.
  checkKernelBodies(Context, *Diags, Kernels);

  if (Diags->hasErrorOccurred())
    Result.setFailed();
}

//===----------------------------------------------------------------------===//
// Kernels.
//===----------------------------------------------------------------------===//

/// Reports the kernel's violations of the table once per translation unit,
/// at the same places and with the same arguments as the plugin, and says
/// whether the kernel can be launched.
bool RewriteConsumer::checkKernel(const FunctionDecl &K, bool Needed) {
  const FunctionDecl *D = K.getCanonicalDecl();
  if (auto It = CheckedKernels.find(D); It != CheckedKernels.end())
    return It->second;
  // As in the plugin: a declaration whose parameter types are incomplete is
  // judged where a definition or a launch needs them, not here.
  if (!Needed)
    for (const ParmVarDecl *P : D->parameters()) {
      ParamClassification C = classifyParameter(*P, isOutParam(*P), *Ctx);
      const auto *V = std::get_if<RuleViolation>(&C);
      if (V && V->Id == DiagId::ParamIncompleteType)
        return true;
    }
  bool OK = true;
  if (std::optional<DiagId> Id = checkKernelSignature(*D)) {
    report(*Diags, D->getLocation(), *Id) << D;
    OK = false;
  }
  for (unsigned I = 0; I < D->getNumParams(); ++I) {
    const ParmVarDecl *P = D->getParamDecl(I);
    ParamClassification C = classifyParameter(*P, isOutParam(*P), *Ctx);
    const auto *V = std::get_if<RuleViolation>(&C);
    if (!V)
      continue;
    reportViolation(*Diags, *D, *P, *V, *Ctx);
    OK = false;
  }
  CheckedKernels[D] = OK;
  return OK;
}

/// Brackets one kernel declaration with `#pragma omp declare target`, so
/// that OpenMP compiles it for the device (also where it is only declared:
/// the definition may be in another translation unit).
void RewriteConsumer::wrapKernel(const FunctionDecl &FD) {
  // Already inside a declare target region (our own earlier output, or the
  // user's): nothing to do. Such attributes carry the directive's location.
  for (const auto *A : FD.specific_attrs<OMPDeclareTargetDeclAttr>())
    if (A->getRange().getBegin().isValid())
      return;
  if (FD.isTemplateInstantiation())
    return;

  const Decl *Outer = &FD;
  if (const FunctionTemplateDecl *TD = FD.getDescribedFunctionTemplate())
    Outer = TD;
  SourceLocation Begin = Outer->getBeginLoc(), End = Outer->getEndLoc();
  for (const Attr *A : FD.attrs()) {
    SourceLocation L = A->getRange().getBegin();
    if (L.isValid() && !A->isInherited() &&
        SM->isBeforeInTranslationUnit(SM->getFileLoc(L),
                                      SM->getFileLoc(Begin)) &&
        SM->getFileID(SM->getFileLoc(L)) ==
            SM->getFileID(SM->getFileLoc(Begin)))
      Begin = L;
  }
  auto FR = fileRange(SourceRange(Begin, End));
  if (!FR) {
    report(*Diags, FD.getLocation(), DiagId::RewriteKernelAcrossMacros) << &FD;
    return;
  }
  FileID FID = FR->first;
  StringRef Buf = SM->getBufferData(FID);
  size_t B = skipBackOverAttributeOpeners(Buf, FR->second.first);
  size_t E = FR->second.second;
  if (!FD.doesThisDeclarationHaveABody()) {
    size_t Semi = skipSpaceAndComments(Buf, E);
    if (Semi < Buf.size() && Buf[Semi] == ';')
      E = Semi + 1;
  }

  // `#pragma` must start a line: reuse the declaration's line and
  // indentation where it starts one, else break the line.
  size_t LS = lineStart(Buf, B);
  StringRef Prefix = Buf.slice(LS, B);
  if (isBlank(Prefix))
    edit(FID, LS, 0, declareTargetBegin(Prefix), 2);
  else
    edit(FID, B, 0, "\n" + declareTargetBegin(""), 2);

  size_t NL = Buf.find('\n', E);
  StringRef Rest = Buf.slice(E, NL);
  StringRef Indent = isBlank(Prefix) ? Prefix : StringRef();
  if (isBlank(Rest) || Rest.ltrim().starts_with("//")) {
    if (NL == StringRef::npos)
      edit(FID, Buf.size(), 0, "\n" + declareTargetEnd(Indent), 0);
    else
      edit(FID, NL + 1, 0, declareTargetEnd(Indent), 0);
  } else {
    edit(FID, E, 0, "\n" + declareTargetEnd(Indent), 0);
  }
}

//===----------------------------------------------------------------------===//
// Calls.
//===----------------------------------------------------------------------===//

/// The function whose body holds `S`; a lambda's body is part of the
/// function that writes the lambda, as the plugin sees it.
const FunctionDecl *RewriteConsumer::enclosingFunction(const Stmt &S) {
  DynTypedNodeList Parents = Ctx->getParents(S);
  while (!Parents.empty()) {
    const DynTypedNode &P = Parents[0];
    if (const auto *D = P.get<Decl>())
      if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
        const auto *MD = dyn_cast<CXXMethodDecl>(FD);
        if (!MD || !MD->getParent()->isLambda())
          return FD;
      }
    Parents = Ctx->getParents(P);
  }
  return nullptr;
}

/// If the call is a statement on its own, so that a block can replace it,
/// the statement that holds it; else null.
const Stmt *RewriteConsumer::statementParent(const CallExpr &CE) {
  const Stmt *Child = &CE;
  DynTypedNodeList Parents = Ctx->getParents(*Child);
  while (Parents.size() == 1 && (Parents[0].get<ExprWithCleanups>() ||
                                 Parents[0].get<ConstantExpr>())) {
    Child = Parents[0].get<Stmt>();
    Parents = Ctx->getParents(*Child);
  }
  if (Parents.size() != 1)
    return nullptr;
  const Stmt *P = Parents[0].get<Stmt>();
  if (!P)
    return nullptr;
  bool IsBody = false;
  if (isa<CompoundStmt>(P))
    IsBody = true;
  else if (const auto *If = dyn_cast<IfStmt>(P))
    IsBody = If->getThen() == Child || If->getElse() == Child;
  else if (const auto *For = dyn_cast<ForStmt>(P))
    IsBody = For->getBody() == Child;
  else if (const auto *Range = dyn_cast<CXXForRangeStmt>(P))
    IsBody = Range->getBody() == Child;
  else if (const auto *While = dyn_cast<WhileStmt>(P))
    IsBody = While->getBody() == Child;
  else if (const auto *Do = dyn_cast<DoStmt>(P))
    IsBody = Do->getBody() == Child;
  else if (const auto *Case = dyn_cast<SwitchCase>(P))
    IsBody = Case->getSubStmt() == Child;
  else if (const auto *Label = dyn_cast<LabelStmt>(P))
    IsBody = Label->getSubStmt() == Child;
  else if (const auto *Attributed = dyn_cast<AttributedStmt>(P))
    IsBody = Attributed->getSubStmt() == Child;
  return IsBody ? P : nullptr;
}

/// Whether `D` can be named from another scope.
static bool isNameable(const NamedDecl *D) {
  for (const Decl *Cur = D; Cur;) {
    const DeclContext *DC = Cur->getDeclContext();
    if (DC->isFunctionOrMethod())
      return false;
    if (const auto *Tag = dyn_cast<TagDecl>(Cur))
      if (!Tag->getIdentifier() && !Tag->getTypedefNameForAnonDecl())
        return false;
    if (isa<RecordDecl>(DC) &&
        (Cur->getAccess() == AS_private || Cur->getAccess() == AS_protected))
      return false;
    Cur = dyn_cast<Decl>(DC);
    if (Cur && !isa<TagDecl>(Cur))
      Cur = nullptr; // namespaces are always reachable
  }
  return true;
}

/// Whether a parameter type can be written at the call: no local, unnamed
/// or inaccessible class appears in it.
bool RewriteConsumer::canSpell(QualType T) {
  // The written spelling may go through aliases: check them too.
  for (QualType S = T; !S.isNull();) {
    if (const auto *TT = dyn_cast<TypedefType>(S.getTypePtr()))
      if (!isNameable(TT->getDecl()))
        return false;
    QualType Next = S.getSingleStepDesugaredType(*Ctx);
    if (Next == S)
      break;
    S = Next;
  }
  SmallVector<QualType, 8> Work{T.getCanonicalType()};
  while (!Work.empty()) {
    QualType C = Work.pop_back_val();
    if (const auto *Ref = C->getAs<ReferenceType>()) {
      Work.push_back(Ref->getPointeeType());
    } else if (const auto *Ptr = C->getAs<clang::PointerType>()) {
      Work.push_back(Ptr->getPointeeType());
    } else if (const auto *Arr = Ctx->getAsArrayType(C)) {
      Work.push_back(Arr->getElementType());
    } else if (const TagDecl *Tag = C->getAsTagDecl()) {
      if (const auto *RD = dyn_cast<CXXRecordDecl>(Tag); RD && RD->isLambda())
        return false;
      if (!isNameable(Tag))
        return false;
      if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Tag))
        for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
          if (Arg.getKind() == TemplateArgument::Type)
            Work.push_back(Arg.getAsType());
    }
  }
  return true;
}

/// `T Name`, with T written so that it means the same at the call.
std::string RewriteConsumer::declarator(QualType T, StringRef Name) {
  PrintingPolicy Policy(langOpts());
  Policy.SuppressUnwrittenScope = true;
  QualType Qualified = TypeName::getFullyQualifiedType(T, *Ctx, false);
  std::string Out;
  raw_string_ostream OS(Out);
  Qualified.print(OS, Policy, Name);
  return Out;
}

/// The two entry points, as the plugin tells them apart: by the marker
/// symbol of their declaration (or, failing that, by the first parameter).
static unsigned kernelArgIndex(const FunctionDecl &Entry) {
  if (const auto *Label = Entry.getAttr<AsmLabelAttr>())
    return Label->getLabel() == "__ofld_launch_shaped" ? 1 : 0;
  return Entry.getNumParams() &&
                 Entry.getParamDecl(0)->getType()->isReferenceType()
             ? 1
             : 0;
}

/// Checks one call as the plugin does, in the plugin's order, and returns
/// the kernel if the call can be lowered (`NumArgs`: the kernel arguments).
const FunctionDecl *RewriteConsumer::checkCall(const CallExpr &CE,
                                               unsigned &NumArgs) {
  const FunctionDecl &Entry = *CE.getDirectCallee();
  if (CE.isTypeDependent() || CE.isValueDependent())
    return nullptr;
  unsigned KernelArg = kernelArgIndex(Entry);
  if (CE.getNumArgs() <= KernelArg)
    return nullptr;

  const Expr *KernelExpr = CE.getArg(KernelArg);
  const Expr *KernelE = KernelExpr->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(KernelE);
      UO && UO->getOpcode() == UO_AddrOf)
    KernelE = UO->getSubExpr()->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(KernelE);
  const auto *Kernel = Ref ? dyn_cast<FunctionDecl>(Ref->getDecl()) : nullptr;
  if (!Kernel) {
    report(*Diags, KernelExpr->getExprLoc(), DiagId::CallUnknownKernel)
        << KernelExpr->getSourceRange();
    return nullptr;
  }
  if (!isKernel(*Kernel)) {
    report(*Diags, KernelExpr->getExprLoc(), DiagId::CallNotAKernel)
        << Kernel << KernelExpr->getSourceRange();
    return nullptr;
  }
  Kernels.push_back(Kernel);
  if (const FunctionDecl *Caller = enclosingFunction(CE);
      Caller && isKernel(*Caller)) {
    report(*Diags, CE.getExprLoc(), DiagId::CallNestedLaunch) << Caller;
    return nullptr;
  }
  if (KernelArg && !checkLaunchShape(*Ctx, *Diags, CE.getArg(0)))
    return nullptr;
  // The plugin's declaration ends in a hidden `__ofld_site` parameter: an
  // argument there is one too many for the kernel.
  NumArgs = CE.getNumArgs() - KernelArg - 1;
  const ParmVarDecl *Last = Entry.getNumParams()
                                ? Entry.getParamDecl(Entry.getNumParams() - 1)
                                : nullptr;
  if (Last && Last->getName() == "__ofld_site" && NumArgs) {
    --NumArgs;
    const Expr *Site = CE.getArg(CE.getNumArgs() - 1);
    if (!isa<CXXDefaultArgExpr>(Site)) {
      report(*Diags, Site->getExprLoc(), DiagId::CallTooManyArguments)
          << Kernel << Kernel->getNumParams();
      return nullptr;
    }
  }
  if (!checkKernel(*Kernel)) {
    report(*Diags, KernelExpr->getExprLoc(), DiagId::CallInvalidKernel)
        << Kernel;
    return nullptr;
  }
  if (NumArgs != Kernel->getNumParams())
    return nullptr; // clang has already said why the call does not match
  return Kernel;
}

void RewriteConsumer::rewriteCall(const CallExpr &CE) {
  unsigned NumArgs = 0;
  const FunctionDecl *Kernel = checkCall(CE, NumArgs);
  if (!Kernel)
    return;
  SourceLocation Loc = SM->getFileLoc(CE.getBeginLoc());
  unsigned KernelArg = kernelArgIndex(*CE.getDirectCallee());
  const Expr *KernelE = CE.getArg(KernelArg)->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(KernelE);
      UO && UO->getOpcode() == UO_AddrOf)
    KernelE = UO->getSubExpr()->IgnoreParenImpCasts();
  const auto *Ref = cast<DeclRefExpr>(KernelE);

  // A call spelled in a macro's body has no text of its own to replace; one
  // spelled in a macro argument does.
  std::optional<std::pair<FileID, std::pair<unsigned, unsigned>>> Range;
  if (CE.getBeginLoc().isFileID() || SM->isMacroArgExpansion(CE.getBeginLoc()))
    Range = fileRange(CE.getSourceRange());
  if (!Range) {
    StringRef Macro =
        Lexer::getImmediateMacroName(CE.getBeginLoc(), *SM, langOpts());
    report(*Diags, Loc, DiagId::RewriteCallInMacroBody) << Macro;
    return;
  }
  auto [FID, Offsets] = *Range;
  auto [Begin, End] = Offsets;
  StringRef Buf = SM->getBufferData(FID);
  // Replace the `;` too where it follows in the text, so that the block
  // is the statement (`if (c) offload(...); else` stays valid).
  size_t Semi = skipSpaceAndComments(Buf, End);
  bool WithSemi = Semi < Buf.size() && Buf[Semi] == ';';
  // Without it, `{...};` only reads as one statement inside a block.
  const Stmt *Holder = statementParent(CE);
  if (!Holder || (!WithSemi && !isa<CompoundStmt>(Holder))) {
    report(*Diags, Loc, DiagId::RewriteCallNotAStatement);
    return;
  }

  LoweredCall Call;
  Call.InMacroArgument = CE.getBeginLoc().isMacroID();
  size_t LS = lineStart(Buf, Begin);
  StringRef Line = Buf.slice(LS, Begin);
  Call.Indent = Line.take_while([](char C) { return C == ' ' || C == '\t'; });
  Call.Original = Buf.slice(Begin, End).str();
  Call.Kernel = fileText(Ref->getSourceRange());
  if (KernelArg)
    Call.Launch = fileText(CE.getArg(0)->getSourceRange());
  if (Call.Kernel.empty() || (Call.Launch && Call.Launch->empty())) {
    report(*Diags, Loc, DiagId::RewriteArgumentInMacro)
        << (Call.Kernel.empty() ? KernelArg + 1 : 1);
    return;
  }

  CallExplanation Explain;
  PresumedLoc PLoc = SM->getPresumedLoc(Loc);
  Explain.File = PLoc.getFilename();
  Explain.Line = PLoc.getLine();
  Explain.Column = PLoc.getColumn();
  Explain.Kernel = Call.Kernel;

  // Classify as the plugin does, on the first declaration; name the
  // parameters as the definition does, where there is one.
  const FunctionDecl *First = Kernel->getCanonicalDecl();
  const FunctionDecl *Named =
      Kernel->getDefinition() ? Kernel->getDefinition() : First;
  std::optional<unsigned> ShapeParam;
  for (unsigned I = 0; I < NumArgs; ++I) {
    const ParmVarDecl *P = First->getParamDecl(I);
    ParamClassification C = classifyParameter(*P, isOutParam(*P), *Ctx);
    const ParamRule &Rule = std::get<ParamRule>(C); // checkKernel passed
    const Expr *Arg = CE.getArg(KernelArg + 1 + I);
    LoweredParam LP;
    LP.Argument = fileText(Arg->getSourceRange());
    if (LP.Argument.empty()) {
      report(*Diags, Arg->getBeginLoc(), DiagId::RewriteArgumentInMacro)
          << (KernelArg + 2 + I);
      return;
    }
    QualType T = P->getType();
    LP.Declarator = !Call.InMacroArgument && canSpell(T)
                        ? declarator(T, paramName(I))
                        : "decltype(ofld::bridge::param<" + utostr(I) + ">(" +
                              Call.Kernel + ")) " + paramName(I);
    // A span made from a temporary container: the container must outlive
    // the declaration of the span (in the call it lives to the call's end).
    if (Rule.Layout.Kind == PayloadKind::Span) {
      const Expr *Written = Arg->IgnoreUnlessSpelledInSource();
      QualType WT = Written->getType();
      LP.KeepTemporary = !Written->isLValue() && WT->isRecordType() &&
                         !Ctx->hasSameUnqualifiedType(WT, T);
    }
    LP.Kind = Rule.Layout.Kind;
    LP.Map = Rule.Layout.Map;
    LP.Count = Rule.Layout.Count;
    LP.IsArrayLike = Rule.Layout.IsArrayLike;
    if (LP.IsArrayLike && !ShapeParam)
      ShapeParam = I;
    Call.Params.push_back(std::move(LP));

    ParamExplanation PE;
    const ParmVarDecl *NamedP = Named->getParamDecl(I);
    PE.Name = NamedP->getName().str();
    PE.Type = T.getAsString(Ctx->getPrintingPolicy());
    PE.Row = ruleFor(Rule.Row).ParamForm;
    PE.Transfer = mapTypeName(Rule.Layout.Map).str();
    // The size expression is spelled with the parameter's name.
    ParamClassification NamedC =
        NamedP == P ? C : classifyParameter(*NamedP, isOutParam(*NamedP), *Ctx);
    const auto *NamedRule = std::get_if<ParamRule>(&NamedC);
    PE.Size = NamedRule ? NamedRule->SizeExpr : Rule.SizeExpr;
    Explain.Params.push_back(std::move(PE));
  }

  std::string Shape;
  if (ShapeParam)
    Shape = "one thread per element of '" + Explain.Params[*ShapeParam].Name +
            "', blocks of 256";
  else
    Shape = "one block of one thread";
  Explain.Launch = Call.Launch
                       ? *Call.Launch + " (a zero grid.x means " + Shape + ")"
                       : "default, " + Shape;

  std::string Text = lowerCall(Call);
  if (Call.InMacroArgument && hasTopLevelComma(Text)) {
    report(*Diags, Loc, DiagId::RewriteMacroComma);
    return;
  }
  edit(FID, Begin, (WithSemi ? Semi + 1 : End) - Begin, Text, 1);
  Result.addCall(std::move(Explain));
}

/// Every rewritten file includes the bridge, before offload.hpp so that the
/// CPU fallback stays quiet (its offload() is no longer used).
void RewriteConsumer::addBridgeIncludes() {
  for (FileID FID : EditedFiles) {
    const std::vector<IncludeLine> &Lines = (*Includes)[FID];
    if (llvm::any_of(Lines, [](const IncludeLine &L) { return L.IsBridge; }))
      continue;
    const IncludeLine *At = nullptr;
    for (const IncludeLine &L : Lines)
      if (L.IsOffloadHeader) {
        At = &L;
        break;
      }
    if (!At && !Lines.empty())
      At = &Lines.front();
    edit(FID, At ? At->Offset : 0, 0, bridgeInclude(At ? At->Angled : true), 1);
  }
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
    return std::make_unique<RewriteConsumer>(Result, Opts, Includes);
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
