//===- DeviceLibraries.h - GPU math libraries of device code ---*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Device compiles run with -nogpulib (there is no OpenMP device runtime to
// link), which also drops the vendor math libraries that clang's <cmath>
// wrappers call: CUDA's libdevice (__nv_sinf...) and ROCm's device libraries
// (__ocml_sin_f32...). The plugin links them itself, into the device module
// before it is optimised, the way -mlink-builtin-bitcode does: only the
// functions the module needs, internalised, with the compile's function
// attributes. No flag is needed from the user.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CODEGEN_DEVICELIBRARIES_H
#define OFFLOAD_CODEGEN_DEVICELIBRARIES_H

#include "llvm/IR/PassManager.h"

#include <string>
#include <vector>

namespace clang {
class CompilerInstance;
}

namespace offload {

/// The bitcode libraries a device compile links when it calls into them.
struct DeviceLibraries {
  /// Prefixes of the functions they define (`__nv_`; `__ocml_`, `__ockl_`).
  std::vector<std::string> Prefixes;
  /// Bitcode files in link order; empty when none was found.
  std::vector<std::string> Files;
  /// What the libraries are, for messages ("CUDA's libdevice").
  std::string What;
  /// Where they were looked for, for the error when a call needs them.
  std::string Searched;
};

/// The libraries of the device compile `CI` targets: for NVPTX, libdevice
/// of the CUDA install the driver put on the device's include path (the one
/// --cuda-path names, or that clang found); for AMDGPU, ROCm's ocml and ockl
/// with the control libraries that match the target and the compile's
/// floating-point options. Neither for other targets.
DeviceLibraries findDeviceLibraries(const clang::CompilerInstance &CI);

/// Links `Libs` into a device module that calls into them, then folds the
/// libraries' compile-time queries (__nvvm_reflect) so that the optimiser
/// sees straight-line code. A call the libraries cannot satisfy because
/// they were not found is an error naming the function, the target and
/// where they were looked for.
class DeviceLibrariesPass : public llvm::PassInfoMixin<DeviceLibrariesPass> {
public:
  DeviceLibrariesPass(const clang::CompilerInstance &CI, DeviceLibraries Libs)
      : CI(CI), Libs(std::move(Libs)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);

private:
  const clang::CompilerInstance &CI;
  DeviceLibraries Libs;
};

} // namespace offload

#endif // OFFLOAD_CODEGEN_DEVICELIBRARIES_H
