//===- OffloadPlugin.cpp - registers the offload clang plugin -------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Registration only. The attributes register themselves (Sema/
// KernelAttributes.cpp); this file hooks the AST consumer in before CodeGen
// and the IR passes into CodeGen's pipeline, host or device per compile job.
//
//===----------------------------------------------------------------------===//

#include "CodeGen/DeviceEntries.h"
#include "CodeGen/DeviceLibraries.h"
#include "CodeGen/DeviceOptLevel.h"
#include "CodeGen/DeviceSymbols.h"
#include "CodeGen/EntryGuards.h"
#include "CodeGen/FieldMarkers.h"
#include "CodeGen/HostLowering.h"
#include "CodeGen/LaunchPrologue.h"
#include "CodeGen/RegionFields.h"
#include "Sema/BundledHeaders.h"
#include "Sema/OffloadConsumer.h"
#include "offload/Core/Diagnostics.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Passes/PassBuilder.h"

using namespace clang;

namespace {

class OffloadAction final : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    LangOptions &LO = CI.getLangOpts();
    // The headers and the checks are C++20 (std::span, concepts). Fatal:
    // what would follow are errors inside the bundled header.
    if (!LO.CPlusPlus20) {
      offload::report(CI.getDiagnostics(), SourceLocation(),
                      offload::DiagId::PluginNeedsCxx20)
          << LangStandard::getLangStandardForKind(LO.LangStd).getName();
      return std::make_unique<ASTConsumer>();
    }
    // -save-temps preprocesses in a job of its own, which runs no plugin
    // action: its output holds the header's CPU fallback, not the launches
    // the plugin lowers. The host job, which runs first, refuses it; the
    // device jobs after it have no host IR to read and nothing to add.
    if (llvm::any_of(CI.getFrontendOpts().Inputs,
                     [](const FrontendInputFile &In) {
                       return In.getKind().isPreprocessed();
                     })) {
      if (LO.OpenMPIsTargetDevice)
        LO.OMPHostIRFile.clear();
      else
        offload::report(CI.getDiagnostics(), SourceLocation(),
                        offload::DiagId::PluginPreprocessedInput);
      // What the fallback code would say next only hides the reason.
      CI.getDiagnostics().setSuppressAllDiagnostics(true);
      return std::make_unique<ASTConsumer>();
    }
    if (!LO.OpenMP || (!LO.OpenMPIsTargetDevice && LO.OMPTargetTriples.empty()))
      offload::report(CI.getDiagnostics(), SourceLocation(),
                      offload::DiagId::PluginNeedsOpenMP);
    offload::installBundledHeaders(CI);
    bool Device = LO.OpenMPIsTargetDevice;
    // Kernels are bare: no OpenMP parallel region can share a kernel's
    // locals, so they need not be globalised through the device runtime,
    // which -nogpulib builds do not have (unoptimised builds would not link).
    if (Device)
      LO.OpenMPCUDAMode = true;
    if (Device)
      offload::optimiseDeviceByDefault(CI);
    // The offload driver runs the host front end with -disable-llvm-passes
    // and optimises its bitcode in a later IR-only job, where no AST (and no
    // plugin action) exists. The lowering needs this job's pipeline, but
    // only the lowering: the O0 pipeline is enough, the later job optimises.
    CodeGenOptions &CGO = CI.getCodeGenOpts();
    bool FrontEndOnly = !Device && CGO.DisableLLVMPasses;
    // GPU device compiles check what the device link would miss
    // (DeviceSymbolsPass) and report it at its line: line tables for
    // diagnostics only, as -Rpass asks for, leave the output unchanged.
    const llvm::Triple &Target = CI.getTarget().getTriple();
    bool GPU = Device && (Target.isNVPTX() || Target.isAMDGPU());
    if (GPU && CGO.getDebugInfo() == llvm::codegenoptions::NoDebugInfo)
      CGO.setDebugInfo(llvm::codegenoptions::LocTrackingOnly);
    auto Promises = std::make_shared<offload::DevicePromises>();
    CGO.DisableLLVMPasses = false;
    CI.getCodeGenOpts().PassBuilderCallbacks.push_back(
        [Device, FrontEndOnly, GPU, Promises, &CGO, &CI,
         Libs = Device ? offload::findDeviceLibraries(CI)
                       : offload::DeviceLibraries()](llvm::PassBuilder &PB) {
          // Read after this callback, when the pipeline is built; code
          // generation (which also reads the level) is done by now.
          if (FrontEndOnly)
            CGO.OptimizationLevel = 0;
          if (Device)
            offload::unrollLikeNvcc(CI.getTarget().getTriple(),
                                    CGO.OptimizationLevel);
          PB.registerPipelineStartEPCallback(
              [Device, &CI, &Libs](llvm::ModulePassManager &MPM,
                                   llvm::OptimizationLevel) {
                MPM.addPass(offload::DropFieldMarkersPass());
                if (Device) {
                  MPM.addPass(offload::DeviceEntriesPass());
                  MPM.addPass(offload::DeviceLibrariesPass(CI, Libs));
                } else {
                  MPM.addPass(offload::RegionFieldsPass());
                  MPM.addPass(offload::HostLoweringPass());
                }
              });
          if (Device)
            PB.registerOptimizerLastEPCallback([](llvm::ModulePassManager &MPM,
                                                  llvm::OptimizationLevel Level,
                                                  llvm::ThinOrFullLTOPhase) {
              MPM.addPass(offload::ReadByValueInPlacePass());
              if (Level != llvm::OptimizationLevel::O0)
                MPM.addPass(offload::FoldEntryGuardsPass());
              MPM.addPass(offload::LaunchProloguePass());
            });
          if (GPU)
            PB.registerOptimizerLastEPCallback(
                [&CI, Promises](llvm::ModulePassManager &MPM,
                                llvm::OptimizationLevel,
                                llvm::ThinOrFullLTOPhase) {
                  MPM.addPass(offload::DeviceSymbolsPass(CI, Promises));
                });
        });
    if (!GPU)
      return offload::createOffloadConsumer(CI, Options);
    std::vector<std::unique_ptr<ASTConsumer>> Consumers;
    Consumers.push_back(offload::createOffloadConsumer(CI, Options));
    Consumers.push_back(offload::createDevicePromiseCollector(Promises));
    return std::make_unique<MultiplexConsumer>(std::move(Consumers));
  }

  /// -fplugin-arg-offload-<arg>.
  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    for (const std::string &A : Args) {
      if (A == "no-loop-residency") {
        Options.LoopResidency = false;
        continue;
      }
      DiagnosticsEngine &D = CI.getDiagnostics();
      D.Report(D.getCustomDiagID(DiagnosticsEngine::Error,
                                 "unknown argument '%0' of the offload plugin "
                                 "(known: no-loop-residency)"))
          << A;
      return false;
    }
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }

private:
  offload::ConsumerOptions Options;
};

} // namespace

static FrontendPluginRegistry::Add<OffloadAction>
    X("offload", "GPU offloading of [[offload::kernel]] functions");
