//===- LoopResidency.h - data kept on the device for a loop -----*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// `for (t...) { offload(step, a, b); offload(step, b, a); }` copies a and b in
// and out on every trip although only the kernels use them: the host never
// looks in between. This finds, per loop, the variables whose copies can move
// out of it (mapped once before the loop's first launch, copied back once
// after it, as an ofld::region around the loop would), and for each variable
// that cannot, the use that forbids it. When unsure, it does not hoist.
// docs/LoopResidency.md says how the plugin lowers the answer.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CORE_LOOPRESIDENCY_H
#define OFFLOAD_CORE_LOOPRESIDENCY_H

#include "offload/Core/KernelDescriptor.h"

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FieldDecl;
class Stmt;
class VarDecl;
} // namespace clang

namespace offload {

/// A checked offload() call: its kernel's descriptor and the index of its
/// first kernel argument.
struct LoopLaunchInfo {
  const KernelDescriptor *Kernel;
  unsigned FirstArg;
};
/// The launch a call is, if it is a checked offload() call.
using LoopLaunchFn =
    llvm::function_ref<std::optional<LoopLaunchInfo>(const clang::CallExpr &)>;

/// Why a variable a loop's launches map still moves on every trip.
enum class ResidencyBlock : uint8_t {
  HostUse,     ///< the host reads or writes it in the loop (at `Use`)
  Escaped,     ///< its address escaped (at `Use`) and the loop calls or
               ///< dereferences something that may reach it (`Use2`)
  Call,        ///< a global or borrowed object, and a call in the loop
               ///< (at `Use`) may touch it
  Indirection, ///< a global or borrowed object, and the loop reads or writes
               ///< through a pointer (at `Use`)
  MayAlias,    ///< a span or reference that may view what another
               ///< variable the loop maps views (`Other`)
  Scratch,     ///< an [[offload::in]] parameter maps it: its device copy is
               ///< the launch's own
  Aggregate,   ///< an object of spans: a hold keeps one range per variable
  Unsupported, ///< a loop whose exits or threads the lowering cannot follow
               ///< (a label in it, a case of an outer switch, a coroutine
               ///< suspension, an OpenMP construct around it)
};

/// A variable, or a field of one reached through `.` (`g.offsets`): what a
/// launch argument maps whole, or what the host touches in a loop.
struct LoopPath {
  const clang::VarDecl *Var = nullptr;
  llvm::SmallVector<const clang::FieldDecl *, 2> Fields;
  bool operator==(const LoopPath &O) const {
    return Var == O.Var && Fields == O.Fields;
  }
  /// As the source spells it: "g.offsets".
  std::string name() const;
};

/// A variable the loop's launches map, and whether it stays on the device.
struct LoopVariable : LoopPath {
  /// Held: to the device if some launch reads it, back if some writes it.
  MapKind Map = MapKind::Literal;
  bool Held = false;
  ResidencyBlock Why = ResidencyBlock::HostUse;
  /// Where the blocking use is (the escape for Escaped), and the call or
  /// indirection in the loop for Escaped.
  clang::SourceLocation Use, Use2;
  const clang::VarDecl *Other = nullptr;
};

/// One loop whose launches map variables: the outermost loop in which a
/// variable qualifies holds it (an inner loop lists it as held by the outer).
struct ResidentLoop {
  const clang::Stmt *Loop = nullptr;
  unsigned Id = 0; ///< unique in the translation unit (from NextId)
  llvm::SmallVector<LoopVariable, 4> Vars;
  /// The launches lexically in the loop (not in a lambda or an inner loop's
  /// own hold), in source order, with the held variables they map.
  llvm::SmallVector<const clang::CallExpr *, 4> Launches;
  /// What the host touches in the loop that a held variable may share
  /// storage with (a reference, a global): at the loop's entry the runtime
  /// is told its storage, and holds no range that overlaps it.
  llvm::SmallVector<LoopPath, 2> Watch;
  bool holdsAny() const {
    for (const LoopVariable &V : Vars)
      if (V.Held)
        return true;
    return false;
  }
};

/// The loops of a function body (outermost first, in source order) that
/// launch kernels mapping variables. A variable is held by the outermost loop
/// in which it qualifies; inner loops do not list it again.
std::vector<ResidentLoop> findResidentLoops(const clang::Stmt &Body,
                                            clang::ASTContext &Ctx,
                                            LoopLaunchFn LaunchOf,
                                            unsigned &NextId);

/// A parameter of a launch whose range a loop holds (ResidentLoop::Id), and
/// the transfers of the hold.
struct LaunchHold {
  unsigned Param;
  unsigned LoopId;
  MapKind Map;
};
/// What the loops hold of a launch's arguments; empty for most launches.
llvm::SmallVector<LaunchHold, 4> holdsOf(const std::vector<ResidentLoop> &Loops,
                                         const clang::CallExpr &CE,
                                         const LoopLaunchInfo &L);

/// What a launch argument maps whole, as a loop holds it: a variable or a
/// field of one (`g.offsets`); none for anything else.
std::optional<LoopPath> heldPath(const clang::Expr &Arg);

/// The words a remark uses for a blocked variable ("the host reads 'a'
/// here").
std::string describeBlock(const LoopVariable &V);

} // namespace offload

#endif // OFFLOAD_CORE_LOOPRESIDENCY_H
