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
#include "llvm/TargetParser/Triple.h"

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

/// On NVPTX at -O2 and above, lets LLVM unroll small loops partially as far
/// as it unrolls them fully (its threshold at the level), where NVPTX's
/// target hooks allow a quarter of that, expecting ptxas to unroll further.
/// ptxas does not (measured with CUDA 13, relocatable or not): n-body's tile
/// loop stayed unrolled 2x where nvcc's NVVM unrolls it 8x, 10% slower.
/// An explicit `-mllvm -unroll-partial-threshold=N` is respected. Call when
/// the pipeline is built (after cc1 parsed -mllvm); the option belongs to
/// this compile job (the driver resets options between in-process jobs).
void unrollLikeNvcc(const llvm::Triple &Target, unsigned OptLevel);

} // namespace offload

#endif // OFFLOAD_CODEGEN_DEVICEOPTLEVEL_H
