//===- KernelEntries.h - kernels and their entry names ----------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The host and device compiles of a TU must agree on one name per kernel:
// libomptarget matches the host's offload entry to the device image's symbol
// by it. Both derive it here from the kernel's own symbol.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CODEGEN_KERNELENTRIES_H
#define OFFLOAD_CODEGEN_KERNELENTRIES_H

#include "offload/Core/KernelDescriptor.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

#include <string>

namespace offload {

/// Symbol of the device entry (and the host offload entry) of `Kernel`.
/// Internal-linkage kernels get a suffix unique to the TU so that two TUs'
/// `static` kernels of the same name stay distinct images entries.
std::string entryName(const llvm::Function &Kernel);

/// Whether `F` is a GPU entry DeviceEntriesPass built (a definition with
/// entryName's prefix and a GPU kernel calling convention): what the passes
/// that run after the optimiser work on, once the annotations are gone.
bool isGpuEntry(const llvm::Function &F);

struct AnnotatedKernel {
  llvm::Function *Kernel;
  KernelDescriptor Desc;
};

/// Kernels the plugin annotated in this module (definitions only), read from
/// `llvm.global.annotations`. Malformed annotations are reported.
llvm::SmallVector<AnnotatedKernel, 8> collectKernels(llvm::Module &M);

/// Takes the launch thunks of `Kernels` off `llvm.used` and
/// `llvm.compiler.used`, where the plugin put them so that they reach this
/// pass: once the entries or launches that call them exist, what they do not
/// call is dead, and inlined thunks can go.
void releaseThunks(llvm::Module &M, llvm::ArrayRef<AnnotatedKernel> Kernels);

} // namespace offload

#endif // OFFLOAD_CODEGEN_KERNELENTRIES_H
