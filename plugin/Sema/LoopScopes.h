//===- LoopScopes.h - the scope object around a resident loop ---*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Loop residency (docs/LoopResidency.md) ends a loop's holds at every way
// out of it, exceptions included, by giving the loop a scope: `{
// ofld::detail::loop_scope s; <loop> }`, written into the AST before CodeGen
// sees the function, so that clang's own cleanups run the destructor. What
// the host touches in the loop under another name follows the scope:
// `ofld::detail::loop_watch(fict);` (ResidentLoop::Watch).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_SEMA_LOOPSCOPES_H
#define OFFLOAD_SEMA_LOOPSCOPES_H

#include "llvm/ADT/ArrayRef.h"

namespace clang {
class FunctionDecl;
class Sema;
class Stmt;
} // namespace clang

namespace offload {

struct LoopPath;

/// Puts `Loop`, a statement of `FD`'s body, in a block that first declares
/// an ofld::detail::loop_scope, then calls ofld::detail::loop_watch on each
/// of `Watch`. False (nothing changed) where the header's declarations or
/// the loop's parent are not found, or a watch cannot be built.
bool wrapLoopInScope(clang::Sema &S, clang::FunctionDecl &FD,
                     const clang::Stmt &Loop, llvm::ArrayRef<LoopPath> Watch);

} // namespace offload

#endif // OFFLOAD_SEMA_LOOPSCOPES_H
