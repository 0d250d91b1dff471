//===- CompileCommand.cpp - how offload-rewrite parses a source -----------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The rewriter parses each source with its own compile command, adjusted so
// that it sees what the plugin sees in the host compilation: offload() only
// declared, the offload header included, the offload targets known to the
// front end (for the checks that depend on them), no plugin and no device
// compilation.
//
//===----------------------------------------------------------------------===//

#include "offload/Rewriter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"

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
    // As omp_bridge.hpp asks, which rewritten sources include first.
    Extra.push_back("-DOFFLOAD_CPU_GRID_INLINE=1");
    Extra.push_back("-UOFFLOAD_REQUIRE_PLUGIN");
    if (!Opts.ShimIncludeDir.empty()) {
      Extra.push_back("-idirafter");
      Extra.push_back(Opts.ShimIncludeDir);
    }
    // The plugin includes the header before the main file (sources need not
    // include it); offload-rewrite writes the include where it is missing.
    Extra.push_back("-include");
    Extra.push_back("offload/offload.hpp");
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

} // namespace rewrite
} // namespace offload
