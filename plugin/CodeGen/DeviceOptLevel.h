//===- DeviceOptLevel.h - device code is optimised by default ---*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// nvcc optimises device code whatever the host's level; clang compiles it at
// -O0 when the command line names no level (CMake's empty build type). The
// device compiles of the plugin follow nvcc: -O3 unless the user's command
// line names a level, which is then respected.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CODEGEN_DEVICEOPTLEVEL_H
#define OFFLOAD_CODEGEN_DEVICEOPTLEVEL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace clang {
class CompilerInstance;
}

namespace offload {

/// Whether `Args` (a clang driver's or cc1's arguments, response files
/// expanded) name an optimisation level that reaches device compiles.
bool namesOptLevel(llvm::ArrayRef<llvm::StringRef> Args);

/// In a device compile whose command line names no optimisation level,
/// raises the compile to -O3 (code generation and the IR pipeline). The
/// command line is this process's: the driver's when clang runs its jobs
/// in-process (the default), else the cc1 job's, which carries the user's
/// -O option. ptxas is run by the driver, at -O0 when no level is named;
/// the CMake package passes `-Xarch_device -O3` for that (OffloadFlags.cmake).
void optimiseDeviceByDefault(clang::CompilerInstance &CI);

} // namespace offload

#endif // OFFLOAD_CODEGEN_DEVICEOPTLEVEL_H
