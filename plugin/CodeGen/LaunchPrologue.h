//===- LaunchPrologue.h - what NVPTX entries do first ------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Two things every NVPTX entry does before it runs the kernel, both for
// launches the runtime queues on a CUDA stream (Streams.cpp):
//
//  - On sm_90 and later it waits for the launch before it on the stream
//    (griddepcontrol.wait). The runtime launches those entries with
//    programmatic stream serialization, so a launch's blocks start while the
//    one before it finishes and flushes; the wait keeps its first memory
//    access after that. Dependent launches on a stream go 10-11% faster on
//    an H100 (Jacobi-2D 2048², docs/Performance.md).
//  - The first block stores the launch's number in its queue's mark word
//    (runtime_abi.def, NumMarkSlots), so a failure found later names the
//    launch that was running, not every launch in flight. The other blocks
//    only test their id (in uniform registers) and branch past the store.
//    How the store is written decides what it costs, since ptxas predicates
//    a short branch into every warp: LaunchPrologue.cpp, addPrologue.
//
// It runs last, once FoldEntryGuardsPass has folded the kernel's bounds
// test, at every optimisation level.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CODEGEN_LAUNCHPROLOGUE_H
#define OFFLOAD_CODEGEN_LAUNCHPROLOGUE_H

#include "llvm/IR/PassManager.h"

namespace offload {

class LaunchProloguePass : public llvm::PassInfoMixin<LaunchProloguePass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace offload

#endif // OFFLOAD_CODEGEN_LAUNCHPROLOGUE_H
