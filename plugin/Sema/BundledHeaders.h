//===- BundledHeaders.h - the user header inside the plugin -----*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_SEMA_BUNDLEDHEADERS_H
#define OFFLOAD_SEMA_BUNDLEDHEADERS_H

namespace clang {
class CompilerInstance;
}

namespace offload {

/// Serves <offload/offload.hpp> from memory and includes it before the main
/// file, which makes offload() available without an #include. The bundled
/// directory comes after the -I paths and before the system ones: a copy
/// found through -I (the installed package's own, normally of the same
/// version) is the one used.
void installBundledHeaders(clang::CompilerInstance &CI);

} // namespace offload

#endif // OFFLOAD_SEMA_BUNDLEDHEADERS_H
