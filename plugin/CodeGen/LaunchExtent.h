//===- LaunchExtent.h - a kernel's bounds check on the host -----*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// A launch without a grid runs one thread per index the kernel's bounds check
// admits (BoundAnalysis.h). Only the translation unit that defines the kernel
// can read that check, so it defines the kernel's extent function, which
// computes the three extents from a launch's arguments; every launch calls it
// by name, also from other translation units (where the kernel is only
// declared), like the region id. In the defining module it inlines.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CODEGEN_LAUNCHEXTENT_H
#define OFFLOAD_CODEGEN_LAUNCHEXTENT_H

#include "offload/Core/KernelDescriptor.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

namespace offload {

/// Defines the extent function of `Kernel`, defined in `M` with descriptor
/// `D`: `void (ptr Objs, ptr Extent)`, Objs the launch's array of pointers to
/// its arguments, Extent the three int64 extents ofld::detail::default_dims
/// takes.
void defineExtentFunction(llvm::Module &M, llvm::Function &Kernel,
                          const KernelDescriptor &D);

/// Calls the extent function of `Kernel` (declaring it where `M` does not
/// define the kernel): fills `Extent` ([3 x i64]) from `Objs`.
void emitExtentCall(llvm::IRBuilder<> &B, llvm::Module &M,
                    llvm::Function &Kernel, llvm::Value *Objs,
                    llvm::Value *Extent);

} // namespace offload

#endif // OFFLOAD_CODEGEN_LAUNCHEXTENT_H
