//===- DeviceEntries.h - GPU/CPU kernel entries of an image -----*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// In the device compile, gives every annotated kernel an entry point that
// libomptarget can launch: a bare kernel (ptx_kernel / amdgpu_kernel, or a
// plain function for the host offload target) whose pointer-sized arguments
// are the slots the host lowering passes. The entry rebuilds the C++
// parameter objects and calls the kernel through the `__ofld::invoke` thunk
// (GPUs) or the `__ofld::cpu_grid` grid emulation (CPU targets).
//
// Entry ABI: (ptr dyn_ptr, slot...) with, per parameter, one slot (the
// literal bits, or a device pointer), plus a count slot after a span's data
// pointer; then three slots with the packed grid and block dimensions and
// two with the launch mark (LaunchPrologue.h).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CODEGEN_DEVICEENTRIES_H
#define OFFLOAD_CODEGEN_DEVICEENTRIES_H

#include "llvm/IR/PassManager.h"

namespace offload {

class DeviceEntriesPass : public llvm::PassInfoMixin<DeviceEntriesPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

/// Lets GPU entries read their large by-value objects where the launch put
/// them. The call of the kernel copies each such object into the kernel's
/// parameter (a per-thread stack copy: 64 KiB per thread for a 64 KiB
/// struct); when nothing writes that copy, loads read the device copy
/// instead, which the entry marks `noalias readonly`. InstCombine does the
/// same for constant memory, but not when the stack copy is more aligned
/// than the object (LLVM aligns a struct's inlined byval copy to 8 on
/// NVPTX); here the loads get the object's own alignment. Runs once the
/// kernel is inlined into its entry (the end of the optimisation pipeline).
class ReadByValueInPlacePass
    : public llvm::PassInfoMixin<ReadByValueInPlacePass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace offload

#endif // OFFLOAD_CODEGEN_DEVICEENTRIES_H
