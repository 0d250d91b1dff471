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

/// Serves <offload/offload.hpp> from memory (ahead of any -I copy, so the
/// header always matches the plugin) and includes it before the main file,
/// which makes offload() available without an #include.
void installBundledHeaders(clang::CompilerInstance &CI);

} // namespace offload

#endif // OFFLOAD_SEMA_BUNDLEDHEADERS_H
