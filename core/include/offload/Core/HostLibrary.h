//===- HostLibrary.h - C and C++ library parts a device lacks ---*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Which functions and variables of the C and C++ libraries device code
// cannot use. The rules and the reasons are in the .cpp file; the kernel body
// checks (KernelBodyChecks.cpp) ask here for every function and global a
// kernel reaches that a system header declares.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CORE_HOSTLIBRARY_H
#define OFFLOAD_CORE_HOSTLIBRARY_H

#include <optional>

namespace clang {
class Decl;
class SourceManager;
} // namespace clang

namespace offload {

/// Why a library declaration is host only; the %select index of the
/// BodyHostLibrary diagnostic.
enum class HostLibraryKind : unsigned {
  IOStream, ///< <iostream> and friends: suggest printf
  CStdio,   ///< <cstdio> apart from printf: suggest printf
  Other,    ///< any other library function without a device version
};

/// Whether `D` (a function or a variable that a system header declares, as
/// used by device code) has no device version, and of which kind. Functions
/// with a definition in the translation unit are host only only when they
/// belong to the I/O streams; the rest of what the headers define inline
/// runs on the device.
std::optional<HostLibraryKind> hostOnlyLibrary(const clang::Decl &D,
                                               bool HasDefinition,
                                               const clang::SourceManager &SM);

} // namespace offload

#endif // OFFLOAD_CORE_HOSTLIBRARY_H
