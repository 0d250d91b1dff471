//===- DeviceSymbols.cpp - undefined device symbols at compile time -------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Once a GPU device module is optimised, every symbol it declares but does
// not define must come from somewhere at the device link: a device library
// (vprintf and malloc on NVIDIA, libdevice's __nv_*, the ROCm device
// libraries' __ocml_/__ockl_*), or another file of the program that defines
// a function or variable declared here inside `#pragma omp declare target`.
// Anything else fails the device link with a message about a mangled name
// and no source line. This pass reports it now, at the line that needs it:
//
//  * the line comes from the instruction's debug location. The plugin asks
//    device compiles for location tracking (line tables for diagnostics
//    only, no debug info in the output: what -Rpass asks for), so every
//    instruction has one; through inlining, the outermost location is the
//    line in the function the code ended up in, and a line in a system
//    header is replaced by a call site of its function;
//  * the kernel is one whose entry (`__ofld_<kernel>`) reaches the function
//    through calls; device code no kernel reaches (a declare-target helper)
//    is named as a device function.
//
// The declarations the AST promises from other files are collected when the
// translation unit is complete, by a consumer that runs before CodeGen's: the
// driver frees the AST before the optimiser runs.
//
//===----------------------------------------------------------------------===//

#include "DeviceSymbols.h"
#include "offload/Core/Diagnostics.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>

using namespace llvm;

namespace offload {
namespace {

/// What the device's own libraries define: the device runtime's printf and
/// heap, assert's handler, and the math libraries linked at the device link.
bool isDeviceProvided(StringRef Name) {
  static constexpr StringLiteral Exact[] = {
      "vprintf", "printf", "malloc", "free", "__assertfail", "__assert_fail"};
  static constexpr StringLiteral Prefixes[] = {"__nv_", "__ocml_", "__ockl_",
                                               "__ofld", "llvm."};
  for (StringRef E : Exact)
    if (Name == E)
      return true;
  for (StringRef P : Prefixes)
    if (Name.starts_with(P))
      return true;
  return false;
}

/// See DevicePromises.
StringSet<> promisedElsewhere(clang::ASTContext &Ctx) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    StringSet<> Names;
    std::unique_ptr<clang::MangleContext> Mangler;
    explicit Finder(clang::ASTContext &Ctx)
        : Mangler(Ctx.createMangleContext()) {}
    bool shouldVisitTemplateInstantiations() const { return true; }
    // Declarations only: bodies declare nothing that has linkage.
    bool TraverseStmt(clang::Stmt *) { return true; }
    static bool isDeclareTarget(const clang::Decl *D) {
      for (const clang::Decl *R : D->redecls())
        if (R->hasAttr<clang::OMPDeclareTargetDeclAttr>())
          return true;
      return false;
    }
    void add(const clang::NamedDecl *D) {
      std::string Name;
      raw_string_ostream OS(Name);
      if (Mangler->shouldMangleDeclName(D))
        Mangler->mangleName(clang::GlobalDecl(D), OS);
      else
        OS << D->getName();
      Names.insert(Name);
    }
    bool VisitFunctionDecl(clang::FunctionDecl *FD) {
      if (!FD->isDependentContext() && !FD->hasBody() &&
          !isa<clang::CXXConstructorDecl, clang::CXXDestructorDecl>(FD) &&
          isDeclareTarget(FD))
        add(FD);
      return true;
    }
    bool VisitVarDecl(clang::VarDecl *VD) {
      if (VD->hasGlobalStorage() && !VD->isStaticLocal() &&
          !VD->getDeclContext()->isDependentContext() && !VD->getDefinition() &&
          isDeclareTarget(VD))
        add(VD);
      return true;
    }
  } F(Ctx);
  F.TraverseDecl(Ctx.getTranslationUnitDecl());
  return std::move(F.Names);
}

/// The functions whose code refers to `GV`, with one referring instruction
/// each (through constant expressions).
DenseMap<Function *, Instruction *> referencingFunctions(GlobalValue &GV) {
  DenseMap<Function *, Instruction *> Out;
  SmallVector<User *, 16> Work(GV.users());
  DenseSet<User *> Seen;
  while (!Work.empty()) {
    User *U = Work.pop_back_val();
    if (!Seen.insert(U).second)
      continue;
    if (auto *I = dyn_cast<Instruction>(U)) {
      Out.try_emplace(I->getFunction(), I);
      continue;
    }
    if (isa<Constant>(U))
      Work.append(U->user_begin(), U->user_end());
  }
  return Out;
}

/// The C++ name of a mangled function name, without its parameters.
std::string functionName(StringRef Mangled) {
  std::string Name = Mangled.str(); // the demangler keeps pointing into it
  ItaniumPartialDemangler D;
  if (D.partialDemangle(Name.c_str()))
    return demangle(Name);
  size_t N = 0;
  char *Buf = D.getFunctionName(nullptr, &N);
  std::string Out = Buf ? std::string(Buf) : demangle(Name);
  std::free(Buf);
  return Out;
}

/// A place that needs a missing symbol.
struct Site {
  Function *Kernel; ///< null: device code no kernel reaches
  Function *F;
  clang::SourceLocation Loc; ///< invalid: no line known
};

class Reporter {
public:
  Reporter(Module &M, clang::CompilerInstance &CI)
      : M(M), Diags(CI.getDiagnostics()), SM(CI.getSourceManager()),
        FM(CI.getFileManager()) {
    // A function reaches what it calls and what it takes the address of
    // (the entry hands the kernel to __ofld::invoke as a pointer).
    for (Function &G : M)
      for (auto [H, I] : referencingFunctions(G))
        Reachers[&G].push_back(H);
  }

  void report(GlobalValue &Missing, StringRef Arch) {
    std::string Symbol = demangle(Missing.getName().str());
    // A kernel's view first; then what no kernel reaches (an inlined
    // kernel's own copy repeats the same lines). Module order otherwise.
    DenseMap<Function *, Instruction *> Users = referencingFunctions(Missing);
    SmallVector<Site, 4> All;
    for (Function &F : M)
      if (Instruction *I = Users.lookup(&F))
        userSites(I, All);
    SmallVector<Site, 4> Sites;
    for (bool ReachedByKernel : {true, false})
      for (const Site &S : All)
        if ((S.Kernel != nullptr) == ReachedByKernel)
          Sites.push_back(S);
    DenseSet<clang::SourceLocation> Lines;
    DenseSet<Function *> Unlocated;
    for (const Site &S : Sites) {
      if (S.Loc.isValid() ? !Lines.insert(S.Loc).second
                          : !Unlocated.insert(S.Kernel ? S.Kernel : S.F).second)
        continue;
      std::string Who = S.Kernel ? functionName(S.Kernel->getName().drop_front(
                                       StringRef("__ofld_").size()))
                                 : functionName(S.F->getName());
      offload::report(Diags, S.Loc, DiagId::DeviceSymbolUndefined)
          << (S.Kernel ? 0 : 1) << Who << Symbol << Arch;
    }
  }

private:
  /// A kernel entry that reaches `F`, if any.
  Function *kernelReaching(Function *F) {
    SmallVector<Function *, 16> Work{F};
    DenseSet<Function *> Seen;
    while (!Work.empty()) {
      Function *G = Work.pop_back_val();
      if (!Seen.insert(G).second)
        continue;
      if (G->getName().starts_with("__ofld_") && !G->isDeclaration())
        return G;
      for (Function *H : Reachers.lookup(G))
        Work.push_back(H);
    }
    return nullptr;
  }

  /// Where `I` is in the user's source: the innermost of its (inlined)
  /// debug locations outside system headers; when all are inside one (a
  /// library function not inlined), each call site of its function.
  void userSites(Instruction *I, SmallVectorImpl<Site> &Out,
                 unsigned Depth = 0) {
    for (const DILocation *L = I->getDebugLoc().get(); L; L = L->getInlinedAt())
      if (clang::SourceLocation Loc = sourceLocation(*L);
          Loc.isValid() && !SM.isInSystemHeader(Loc)) {
        Out.push_back(
            {kernelReaching(I->getFunction()), I->getFunction(), Loc});
        return;
      }
    size_t Before = Out.size();
    if (Depth < 8)
      for (Use &U : I->getFunction()->uses())
        if (auto *CB = dyn_cast<CallBase>(U.getUser()))
          userSites(CB, Out, Depth + 1);
    if (Out.size() == Before)
      Out.push_back({kernelReaching(I->getFunction()), I->getFunction(), {}});
  }

  clang::SourceLocation sourceLocation(const DILocation &L) {
    SmallString<256> Path(L.getFilename());
    if (!sys::path::is_absolute(Path))
      sys::path::make_absolute(L.getDirectory(), Path);
    auto File = FM.getOptionalFileRef(Path);
    if (!File)
      return {};
    return SM.translateFileLineCol(*File, L.getLine(),
                                   std::max(1u, L.getColumn()));
  }

  Module &M;
  clang::DiagnosticsEngine &Diags;
  clang::SourceManager &SM;
  clang::FileManager &FM;
  DenseMap<Function *, SmallVector<Function *, 2>> Reachers;
};

class PromiseCollector final : public clang::ASTConsumer {
public:
  explicit PromiseCollector(std::shared_ptr<DevicePromises> Out)
      : Out(std::move(Out)) {}
  void HandleTranslationUnit(clang::ASTContext &Ctx) override {
    Out->Names = promisedElsewhere(Ctx);
  }

private:
  std::shared_ptr<DevicePromises> Out;
};

} // namespace

std::unique_ptr<clang::ASTConsumer>
createDevicePromiseCollector(std::shared_ptr<DevicePromises> Out) {
  return std::make_unique<PromiseCollector>(std::move(Out));
}

PreservedAnalyses DeviceSymbolsPass::run(Module &M, ModuleAnalysisManager &) {
  Triple T(M.getTargetTriple());
  if (!T.isNVPTX() && !T.isAMDGPU())
    return PreservedAnalyses::all();
  // An earlier error (a device library refusing a call, say) has said why
  // the module is incomplete; what it left undefined adds nothing.
  if (CI.getDiagnostics().hasErrorOccurred())
    return PreservedAnalyses::all();
  SmallVector<GlobalValue *, 4> Missing;
  for (GlobalValue &GV : M.global_values()) {
    if (!GV.isDeclaration() || GV.use_empty() || GV.getName().empty())
      continue;
    if (auto *F = dyn_cast<Function>(&GV); F && F->isIntrinsic())
      continue;
    if (!isDeviceProvided(GV.getName()))
      Missing.push_back(&GV);
  }
  if (Missing.empty())
    return PreservedAnalyses::all();
  std::string Arch;
  for (Function &F : M)
    if (F.hasFnAttribute("target-cpu")) {
      Arch = F.getFnAttribute("target-cpu").getValueAsString().str();
      break;
    }
  if (Arch.empty())
    Arch = T.str();
  Reporter R(M, CI);
  for (GlobalValue *GV : Missing)
    if (!Promises || !Promises->Names.contains(GV->getName()))
      R.report(*GV, Arch);
  return PreservedAnalyses::all();
}

} // namespace offload
