//===- OffloadConsumer.h - kernel and offload() call checking ---*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Runs before CodeGen sees each declaration. For every kernel it checks the
// signature against the transfer table, makes the kernel and its launch
// thunks emittable in the device compile, and records the kernel's type facts
// as an annotation. For every offload() call it checks the callee and fills
// the hidden descriptor argument that the IR lowering reads.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_SEMA_OFFLOADCONSUMER_H
#define OFFLOAD_SEMA_OFFLOADCONSUMER_H

#include "clang/Sema/SemaConsumer.h"

#include <memory>

namespace clang {
class CompilerInstance;
}

namespace offload {

/// The plugin's -fplugin-arg-offload-... switches.
struct ConsumerOptions {
  /// Loop residency (docs/LoopResidency.md); `no-loop-residency` turns it
  /// off.
  bool LoopResidency = true;
};

std::unique_ptr<clang::ASTConsumer>
createOffloadConsumer(clang::CompilerInstance &CI,
                      const ConsumerOptions &Options);

} // namespace offload

#endif // OFFLOAD_SEMA_OFFLOADCONSUMER_H
