//===- LoopScopes.h - the scope object around a resident loop ---*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Loop residency (docs/LoopResidency.md) ends a loop's holds at every way
// out of it, exceptions included, by giving the loop a scope: `{
// ofld::detail::loop_scope s; <loop> }`, written into the AST before CodeGen
// sees the function, so that clang's own cleanups run the destructor.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_SEMA_LOOPSCOPES_H
#define OFFLOAD_SEMA_LOOPSCOPES_H

namespace clang {
class FunctionDecl;
class Sema;
class Stmt;
} // namespace clang

namespace offload {

/// Puts `Loop`, a statement of `FD`'s body, in a block that first declares
/// an ofld::detail::loop_scope. False (nothing changed) where the header's
/// class or the loop's parent is not found.
bool wrapLoopInScope(clang::Sema &S, clang::FunctionDecl &FD,
                     const clang::Stmt &Loop);

} // namespace offload

#endif // OFFLOAD_SEMA_LOOPSCOPES_H
