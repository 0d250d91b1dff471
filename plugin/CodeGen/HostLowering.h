//===- HostLowering.h - offload() calls -> libomptarget launches -*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// In the host compile, replaces each call of the `__ofld_launch` marker with
// the launch sequence on LLVM's offload runtime, driven by the call's
// descriptor (see KernelDescriptor.h):
//
//   shape  = __ofld_launch_shape(site, launch, default count)
//   device = __ofld_select_device(site, launch)     ; -1: run on this CPU
//   __tgt_target_data_begin_mapper(...)              ; only what must move
//   rc = __tgt_target_kernel(ident, device, teams, threads, region, &args)
//   rc == 0 ? __tgt_target_data_end_mapper(...)      ; copy back
//           : __ofld_launch_failed(...), release, run on the CPU
//
// It also emits, for each kernel defined in the module, the region id and
// the offload entry that clang-linker-wrapper registers once per image.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CODEGEN_HOSTLOWERING_H
#define OFFLOAD_CODEGEN_HOSTLOWERING_H

#include "llvm/IR/PassManager.h"

namespace offload {

class HostLoweringPass : public llvm::PassInfoMixin<HostLoweringPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace offload

#endif // OFFLOAD_CODEGEN_HOSTLOWERING_H
