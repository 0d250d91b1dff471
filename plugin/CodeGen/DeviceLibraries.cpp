//===- DeviceLibraries.cpp - the GPU math libraries of a device compile ---===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The link runs first in the device pipeline (after the target's own
// pipeline-start passes), so the libraries' functions are inlined and
// optimised with the kernels, as with -mlink-builtin-bitcode. Two things
// clang's driver would otherwise do are done here:
//  * NVPTX: NVVMReflect has already run when the pipeline-start passes of the
//    plugin run, so the reflect queries of libdevice are folded here, with
//    nvcc's values (see foldReflect).
//  * AMDGPU: ROCm's oclc_*.bc control libraries are one constant each; they
//    are defined here from the target and the compile's options instead, so
//    that every gfx target works whatever ISA files the install has.
//
//===----------------------------------------------------------------------===//

#include "DeviceLibraries.h"

#include "clang/Basic/CodeGenOptions.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/TargetOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Transforms/IPO/Internalize.h"

#include <cstdlib>

// What -mlink-builtin-bitcode applies to each library function (clang's
// CodeGen/CGCall.cpp): the compile's target CPU and features, denormal and
// fast-math attributes. Exported by libclang-cpp but not in its headers.
namespace clang::CodeGen {
void mergeDefaultFunctionDefinitionAttributes(llvm::Function &F,
                                              const CodeGenOptions &CodeGenOpts,
                                              const LangOptions &LangOpts,
                                              const TargetOptions &TargetOpts,
                                              bool WillInternalize);
} // namespace clang::CodeGen

using namespace llvm;

namespace offload {

namespace {

/// libdevice of the CUDA install whose include directory the driver gave the
/// device compile (`-internal-isystem <cuda>/include`, the one with cuda.h).
DeviceLibraries findLibDevice(const clang::CompilerInstance &CI) {
  DeviceLibraries L;
  L.Prefixes = {"__nv_"};
  L.What = "CUDA's libdevice";
  L.Searched = "the compile names no CUDA install; pass --cuda-path=<dir>";
  for (const auto &E : CI.getHeaderSearchOpts().UserEntries) {
    if (sys::path::filename(E.Path) != "include" ||
        !sys::fs::exists(E.Path + "/cuda.h"))
      continue;
    SmallString<256> File(sys::path::parent_path(E.Path));
    sys::path::append(File, "nvvm", "libdevice", "libdevice.10.bc");
    if (sys::fs::exists(File)) {
      L.Files.push_back(std::string(File));
      return L;
    }
    L.Searched = ("there is no " + File).str();
  }
  return L;
}

/// ROCm's ocml and ockl: under $ROCM_PATH, /opt/rocm or Debian's
/// rocm-device-libs (/usr/lib/<multiarch>/amdgcn).
DeviceLibraries findRocmDeviceLibs() {
  DeviceLibraries L;
  L.Prefixes = {"__ocml_", "__ockl_"};
  L.What = "ROCm's device libraries (ocml, ockl)";
  SmallVector<std::string, 4> Dirs;
  if (const char *Rocm = std::getenv("ROCM_PATH"))
    Dirs.push_back(std::string(Rocm) + "/amdgcn/bitcode");
  Dirs.push_back("/opt/rocm/amdgcn/bitcode");
  Dirs.push_back("/usr/lib/" OFFLOAD_HOST_MULTIARCH "/amdgcn/bitcode");
  for (const std::string &D : Dirs)
    if (sys::fs::exists(D + "/ocml.bc") && sys::fs::exists(D + "/ockl.bc")) {
      L.Files = {D + "/ocml.bc", D + "/ockl.bc"};
      return L;
    }
  L.Searched = "looked in";
  for (const std::string &D : Dirs)
    L.Searched += " " + D;
  L.Searched += "; on Debian: apt-get install rocm-device-libs";
  return L;
}

bool hasPrefix(StringRef Name, const DeviceLibraries &L) {
  return any_of(L.Prefixes,
                [&](const std::string &P) { return Name.starts_with(P); });
}

/// Functions of the libraries that `M` calls and does not define.
SmallVector<Function *, 8> neededFunctions(Module &M,
                                           const DeviceLibraries &L) {
  SmallVector<Function *, 8> Out;
  for (Function &F : M)
    if (F.isDeclaration() && !F.use_empty() && hasPrefix(F.getName(), L))
      Out.push_back(&F);
  return Out;
}

/// One error, at the first call (its line with -g, else the calling
/// function's declaration), naming the functions.
void reportMissing(Module &M, ArrayRef<Function *> Needed,
                   const DeviceLibraries &L, StringRef Target) {
  std::string Names;
  for (Function *F : Needed)
    Names += (Names.empty() ? "'" : ", '") + F->getName().str() + "'";
  for (User *U : Needed.front()->users())
    if (auto *Call = dyn_cast<CallBase>(U)) {
      M.getContext().diagnose(DiagnosticInfoUnsupported(
          *Call->getFunction(),
          "offload: kernel code calls math functions (" + Names +
              ") that need " + L.What + " for " + Target +
              ", which was not found: " + L.Searched,
          Call->getDebugLoc()));
      return;
    }
}

/// Links one library file: only what the module needs, internalised.
bool linkFile(Module &M, StringRef Path, const clang::CompilerInstance &CI) {
  auto Fail = [&](const Twine &Why) {
    M.getContext().emitError("offload: cannot link " + Path + ": " + Why);
    return false;
  };
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return Fail(Buf.getError().message());
  Expected<std::unique_ptr<Module>> Lib =
      getOwningLazyBitcodeModule(std::move(*Buf), M.getContext());
  if (!Lib)
    return Fail(toString(Lib.takeError()));
  // libdevice says nvptx64-nvidia-gpulibs; both are built for this target.
  (*Lib)->setTargetTriple(M.getTargetTriple());
  (*Lib)->setDataLayout(M.getDataLayout());
  for (Function &F : **Lib)
    if (!F.isIntrinsic())
      clang::CodeGen::mergeDefaultFunctionDefinitionAttributes(
          F, CI.getCodeGenOpts(), CI.getLangOpts(), CI.getTargetOpts(),
          /*WillInternalize=*/true);
  if (Linker::linkModules(M, std::move(*Lib), Linker::Flags::LinkOnlyNeeded,
                          [](Module &M, const StringSet<> &Linked) {
                            internalizeModule(M, [&](const GlobalValue &GV) {
                              return !GV.hasName() ||
                                     !Linked.contains(GV.getName());
                            });
                          }))
    return Fail("the IR linker failed");
  return true;
}

/// sm_90 -> 90; 0 if `CPU` names no SM.
unsigned smVersion(StringRef CPU) {
  unsigned V = 0;
  if (CPU.consume_front("sm_"))
    CPU.take_while(isDigit).getAsInteger(10, V);
  return V;
}

/// Replaces libdevice's __nvvm_reflect queries by nvcc's answers:
/// __CUDA_ARCH the target's SM times ten, __CUDA_FTZ the module's
/// nvvm-reflect-ftz flag (0 unless -fgpu-flush-denormals-to-zero), and
/// __CUDA_PREC_SQRT 1 (sqrtf correctly rounded) unless the compile allows
/// approximate functions (-ffast-math), like nvcc's -prec-sqrt. NVVMReflect
/// would answer 0 there, an approximate sqrtf.
void foldReflect(Module &M, unsigned Sm, bool PrecSqrt) {
  unsigned Ftz = 0;
  if (auto *Flag = mdconst::extract_or_null<ConstantInt>(
          M.getModuleFlag("nvvm-reflect-ftz")))
    Ftz = Flag->getZExtValue();
  for (StringRef Name : {"__nvvm_reflect", "llvm.nvvm.reflect"}) {
    Function *F = M.getFunction(Name);
    if (!F)
      continue;
    for (User *U : make_early_inc_range(F->users())) {
      auto *Call = dyn_cast<CallInst>(U);
      StringRef Query;
      if (!Call || !getConstantStringInfo(
                       Call->getArgOperand(0)->stripPointerCasts(), Query))
        continue;
      unsigned V = Query == "__CUDA_ARCH"        ? Sm * 10
                   : Query == "__CUDA_FTZ"       ? Ftz
                   : Query == "__CUDA_PREC_SQRT" ? PrecSqrt
                                                 : 0;
      Call->replaceAllUsesWith(ConstantInt::get(Call->getType(), V));
      Call->eraseFromParent();
    }
    if (F->use_empty())
      F->eraseFromParent();
  }
}

/// gfx90a -> 9010, gfx942 -> 9402, gfx1030 -> 10300 (__oclc_ISA_version).
unsigned isaVersion(StringRef CPU) {
  if (!CPU.consume_front("gfx") || CPU.size() < 3)
    return 0;
  unsigned Major = 0, Minor = 0, Step = 0;
  if (CPU.drop_back(2).getAsInteger(10, Major) ||
      CPU.substr(CPU.size() - 2, 1).getAsInteger(16, Minor) ||
      CPU.substr(CPU.size() - 1).getAsInteger(16, Step))
    return 0;
  return Major * 1000 + Minor * 100 + Step;
}

/// Defines the oclc control constants that ocml and ockl read, as ROCm's
/// oclc_*.bc files would for this target and these options.
void defineRocmControls(Module &M, const clang::CompilerInstance &CI) {
  const clang::LangOptions &LO = CI.getLangOpts();
  const clang::TargetOptions &TO = CI.getTargetOpts();
  unsigned Isa = isaVersion(TO.CPU);
  bool Wave64 = Isa < 10000 || is_contained(TO.Features, "+wavefrontsize64");
  bool Daz = CI.getCodeGenOpts().FP32DenormalMode.Output !=
             DenormalMode::DenormalModeKind::IEEE;
  bool FiniteOnly = LO.NoHonorInfs && LO.NoHonorNaNs;
  bool Unsafe = LO.UnsafeFPMath;
  unsigned Abi = TO.CodeObjectVersion == CodeObjectVersionKind::COV_None
                     ? 500
                     : static_cast<unsigned>(TO.CodeObjectVersion);
  struct Control {
    const char *Name;
    unsigned Bits, Value;
  } Controls[] = {{"__oclc_ISA_version", 32, Isa},
                  {"__oclc_ABI_version", 32, Abi},
                  {"__oclc_wavefrontsize64", 8, Wave64},
                  {"__oclc_daz_opt", 8, Daz},
                  {"__oclc_finite_only_opt", 8, FiniteOnly},
                  {"__oclc_unsafe_math_opt", 8, Unsafe},
                  {"__oclc_correctly_rounded_sqrt32", 8, true}};
  for (const Control &C : Controls) {
    GlobalVariable *G = M.getGlobalVariable(C.Name);
    if (!G || !G->isDeclaration())
      continue;
    G->setInitializer(
        ConstantInt::get(IntegerType::get(M.getContext(), C.Bits), C.Value));
    G->setConstant(true);
    G->setLinkage(GlobalValue::InternalLinkage);
  }
}

/// Kernel code's printf goes to the buffered one of offload/device_libc.hpp
/// where the module has it: on AMD GPUs the call of printf, on NVIDIA GPUs
/// with OFFLOAD_BUFFERED_PRINTF the call of vprintf that clang lowered printf
/// to. (The other C output functions are errors in kernels on every target:
/// BodyHostLibrary in the diagnostics table.)
void redirectPrintf(Module &M) {
  Function *Impl = M.getFunction("__ofld_vprintf");
  if (!Impl || Impl->isDeclaration())
    return;
  for (auto [C, Ours] :
       {std::pair{"printf", "__ofld_printf"}, {"vprintf", "__ofld_vprintf"}}) {
    Function *F = M.getFunction(C);
    Function *To = M.getFunction(Ours);
    if (!F || !F->isDeclaration() || !To || To->isDeclaration())
      continue;
    F->replaceAllUsesWith(To);
    F->eraseFromParent();
  }
}

} // namespace

DeviceLibraries findDeviceLibraries(const clang::CompilerInstance &CI) {
  const Triple &T = CI.getTarget().getTriple();
  if (T.isNVPTX())
    return findLibDevice(CI);
  if (T.isAMDGPU())
    return findRocmDeviceLibs();
  return {};
}

PreservedAnalyses DeviceLibrariesPass::run(Module &M, ModuleAnalysisManager &) {
  const std::string &CPU = CI.getTargetOpts().CPU;
  redirectPrintf(M);
  if (Libs.Prefixes.empty())
    return PreservedAnalyses::all();
  SmallVector<Function *, 8> Needed = neededFunctions(M, Libs);
  if (Needed.empty())
    return PreservedAnalyses::all();
  if (Libs.Files.empty()) {
    reportMissing(M, Needed, Libs, CPU);
    return PreservedAnalyses::all();
  }
  for (const std::string &File : Libs.Files)
    if (!linkFile(M, File, CI))
      return PreservedAnalyses::none();
  if (M.getTargetTriple().isNVPTX())
    foldReflect(M, smVersion(CPU), !CI.getLangOpts().ApproxFunc);
  else
    defineRocmControls(M, CI);
  return PreservedAnalyses::none();
}

} // namespace offload
