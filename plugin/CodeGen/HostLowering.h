//===- HostLowering.h - offload() calls to libomptarget ---------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// In the host compile, replaces each call of the `__ofld_launch` marker with
// the launch sequence on LLVM's offload runtime, driven by the call's
// descriptor (see KernelDescriptor.h):
//
//   device = __ofld_select_device(site, launch)     ; -1: run on this CPU
//   kernel.extent(objs, extent)                     ; its bounds check
//   mode   = __ofld_launch_shape(site, launch, extent, device,
//                                region, dims)       ; 0: nothing to run
//   queued = __ofld_enqueue(site, launch, region, device, dims, mode, args)
//            ; 1: all its data was on the device, queued on its stream
//   else mode 1: body(objs, dims, device)   mode 2: __ofld_async_submit(...)
//
//   body:
//   plan   = __ofld_plan_maps(...)                  ; aliasing, capacity,
//   staging rc = __tgt_target_kernel(ident, device, teams, threads, region,
//   &args) rc == 0 ? __ofld_finish_maps(plan, 1)           ; staged copies back
//           : __ofld_launch_failed(...), run on the CPU
//
// A launch outside a launch group runs this in a function of its own,
// `__ofld_site.<kernel>(objs, launch)`, which its caller calls; that function
// and the body are optnone (HostLowering.cpp's outlineSite says why).
//
// The argument arrays hold the mapped ranges (transfer bits only) followed
// by the kernel's parameter slots: __ofld_enqueue translates the slots to
// device addresses itself, and __tgt_target_kernel performs the data begin
// mapping, the launch and the data end mapping with one synchronisation.
//
// It also emits, for each kernel defined in the module, the region id, the
// extent function (LaunchExtent.h) and the offload entry that
// clang-linker-wrapper registers once per image.
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
