//===- DeviceOptLevel.cpp - device code is optimised by default -----------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// cc1 cannot tell `-O0` from no option at all (both leave level 0), so the
// decision reads the command line the user gave: /proc/self/cmdline. The
// loop unrolling of NVPTX device code is tuned here too: how device code is
// optimised, decided in one place.
//
//===----------------------------------------------------------------------===//

#include "DeviceOptLevel.h"

#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/StringSaver.h"

using namespace llvm;

namespace offload {

bool namesOptLevel(ArrayRef<StringRef> Args) {
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    // The next argument belongs to another tool or to the host only.
    if (StringSwitch<bool>(A)
            .Cases({"-Xlinker", "-Xarch_host", "-Xoffload-linker",
                    "-Xassembler", "-Xpreprocessor"},
                   true)
            .Default(false)) {
      ++I;
      continue;
    }
    if (A.starts_with("-O") || A.starts_with("--optimize"))
      return true;
  }
  return false;
}

namespace {
/// This process's arguments with response files expanded; empty if they
/// cannot be read.
SmallVector<StringRef, 64> processArguments(StringSaver &Saver) {
  SmallVector<StringRef, 64> Out;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFileAsStream("/proc/self/cmdline");
  if (!Buf)
    return Out;
  SmallVector<const char *, 64> Argv;
  StringRef Rest = (*Buf)->getBuffer();
  while (!Rest.empty()) {
    auto [Arg, Tail] = Rest.split('\0');
    Argv.push_back(Saver.save(Arg).data());
    Rest = Tail;
  }
  cl::ExpandResponseFiles(Saver, cl::TokenizeGNUCommandLine, Argv);
  for (const char *A : Argv)
    Out.push_back(A);
  return Out;
}
} // namespace

void optimiseDeviceByDefault(clang::CompilerInstance &CI) {
  clang::CodeGenOptions &CGO = CI.getCodeGenOpts();
  if (CGO.OptimizationLevel != 0)
    return;
  BumpPtrAllocator Alloc;
  StringSaver Saver(Alloc);
  SmallVector<StringRef, 64> Args = processArguments(Saver);
  if (Args.empty() || namesOptLevel(ArrayRef(Args).drop_front()))
    return;
  // What the driver and CompilerInvocation derive from -O3, unless turned
  // off by name. Read when IR is generated and when the pipeline is built,
  // both after this.
  auto Off = [&](StringRef Flag) { return is_contained(Args, Flag); };
  CGO.OptimizationLevel = 3;
  CGO.setInlining(clang::CodeGenOptions::NormalInlining);
  CGO.UnrollLoops = !Off("-fno-unroll-loops");
  CGO.VectorizeLoop = !Off("-fno-vectorize");
  CGO.VectorizeSLP = !Off("-fno-slp-vectorize");
}

void unrollLikeNvcc(const Triple &Target, unsigned OptLevel) {
  if (!Target.isNVPTX() || OptLevel < 2)
    return;
  auto &Opts = cl::getRegisteredOptions();
  auto It = Opts.find("unroll-partial-threshold");
  if (It == Opts.end() || It->second->getNumOccurrences())
    return;
  // LoopUnrollPass's full-unroll thresholds: 150, 300 at -O3.
  (void)It->second->addOccurrence(0, It->first, OptLevel > 2 ? "300" : "150");
}

} // namespace offload
