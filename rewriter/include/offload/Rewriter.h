//===- Rewriter.h - offload() sources to standard OpenMP --------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The library behind `offload-rewrite`: it reads translation units that use
// [[offload::kernel]] and offload(...) and produces clang::tooling
// Replacements that turn them into plain OpenMP offload C++:
//
//  * every kernel declaration, and every namespace-scope variable a kernel
//    reads, is wrapped in `#pragma omp declare target`;
//  * every `offload(...)` statement becomes a block that binds the arguments
//    to the kernel's parameter types, computes the launch shape with
//    ofld::bridge::shape() and runs the kernel in a target teams region
//    whose map clauses come from offload::classifyParameter; consecutive
//    launches that share data hold it in a `target data` region, and loops
//    whose launches alone use some data hold it across their trips
//    (ofld::bridge::loop_hold);
//  * files that use offload include <offload/omp_bridge.hpp>.
//
// Everything the rewriter decides per parameter comes from the transfer
// table in core/include/offload/Core/TransferRules.h; this library only spells
// it.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_REWRITER_REWRITER_H
#define OFFLOAD_REWRITER_REWRITER_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace offload {
namespace rewrite {

/// One kernel parameter at one call site, as `--explain` prints it.
struct ParamExplanation {
  std::string Name;     ///< the parameter's name in the kernel
  std::string Type;     ///< its type
  std::string Row;      ///< the transfer-table row it matched
  std::string Transfer; ///< firstprivate, to, tofrom or from
  std::string Size;     ///< the table's size expression
  /// A struct of spans: one entry per span field (its path from the
  /// parameter, its type, its span row).
  std::vector<ParamExplanation> Fields;
};

/// One rewritten offload() call.
struct CallExplanation {
  std::string File;
  unsigned Line = 0, Column = 0;
  std::string Kernel; ///< the kernel as the call names it
  std::string Launch; ///< how the launch shape is chosen
  std::vector<ParamExplanation> Params;
};

/// One loop whose launches keep data on the device (loop residency).
struct LoopExplanation {
  std::string File;
  unsigned Line = 0, Column = 0;
  /// Each variable held, with its transfers (`a (tofrom)`).
  std::vector<std::string> Held;
};

/// Prints one call site of `--explain`.
void printExplanation(llvm::raw_ostream &OS, const CallExplanation &Call);
/// Prints one loop of `--explain`.
void printExplanation(llvm::raw_ostream &OS, const LoopExplanation &Loop);

/// What the rewriter found in all translation units of one run. Identical
/// edits from several translation units (a header seen twice) count once.
class RewriteResult {
public:
  /// Records an edit of `Length` bytes at `Offset` of `FilePath` (absolute).
  /// Insertions at one offset are ordered by `Rank`, then by arrival.
  /// `Format`: the new text is formatted in place (LLVM style).
  void addEdit(llvm::StringRef FilePath, unsigned Offset, unsigned Length,
               llvm::StringRef Text, unsigned Rank, bool Format = false);
  /// Records what `__FILE__` names `FilePath` (absolute) in the original
  /// compile: the `#line` directives after edits that add lines say it.
  void setPresumedName(llvm::StringRef FilePath, llvm::StringRef Name);
  /// Notes that no `#line` directive may go between `Begin` and `End`
  /// (offsets of `FilePath`: a macro's invocation).
  void addNoDirectives(llvm::StringRef FilePath, unsigned Begin, unsigned End);
  /// Records a rewritten call; the same location counts once.
  void addCall(CallExplanation Call);
  /// Records a loop that holds data; the same location counts once.
  void addLoop(LoopExplanation Loop);
  /// Notes that a translation unit could not be analysed or had errors.
  void setFailed() { Failed = true; }

  bool failed() const { return Failed; }
  llvm::ArrayRef<CallExplanation> calls() const { return Calls; }
  llvm::ArrayRef<LoopExplanation> loops() const { return Loops; }
  /// The edits grouped by file, those marked `Format` formatted with
  /// clang-format's LLVM style (`Code` reads a file), with a `#line`
  /// directive after each group of edits that changes the number of lines,
  /// so that the original lines keep their numbers. If two edits overlap,
  /// says so on `Diags` (rows of Diagnostics.def) and returns nothing.
  std::optional<std::map<std::string, clang::tooling::Replacements>>
  replacements(clang::DiagnosticsEngine &Diags,
               llvm::function_ref<std::optional<std::string>(llvm::StringRef)>
                   Code) const;

private:
  struct Edit {
    unsigned Offset, Length, Rank;
    std::string Text;
    unsigned Seq;
    bool Format;
    bool operator<(const Edit &O) const {
      return std::tie(Offset, Length, Rank, Text) <
             std::tie(O.Offset, O.Length, O.Rank, O.Text);
    }
  };
  std::map<std::string, std::set<Edit>> Edits;
  std::map<std::string, std::string> PresumedNames;
  std::map<std::string, std::vector<std::pair<unsigned, unsigned>>>
      NoDirectives;
  std::vector<CallExplanation> Calls;
  std::set<std::tuple<std::string, unsigned, unsigned>> CallLocs;
  std::vector<LoopExplanation> Loops;
  std::set<std::tuple<std::string, unsigned, unsigned>> LoopLocs;
  unsigned NextSeq = 0;
  bool Failed = false;
};

/// Which compilers the output is for.
enum class Target {
  /// Any OpenMP 4.5 compiler: LLVM's bare teams where the compiler has them
  /// (clang 20 and later), standard teams elsewhere (the bridge decides).
  Portable,
  /// clang 20 and later only: LLVM's bare teams, `ompx_bare`.
  Clang,
  /// Standard OpenMP teams only (no clang GPU targets).
  OpenMP,
};

/// How to parse the inputs and what to write.
struct RewriteOptions {
  /// Directory holding offload/offload.hpp and offload/omp_bridge.hpp. The
  /// plugin provides the header itself, so a compile database made for a
  /// plugin build may not name it; it is searched last (-idirafter).
  std::string ShimIncludeDir;
  /// Clang resource directory (stddef.h, ...); empty keeps clang's guess,
  /// which is wrong for a tool installed outside clang's prefix.
  std::string ResourceDir;
  Target Form = Target::Portable;
  /// Loops keep the data only their launches use on the device, as the
  /// plugin's loop residency does (docs/LoopResidency.md).
  bool LoopResidency = true;
};

/// Defaults baked in at build time: the source tree's runtime/include
/// and the resource directory of the clang the tool was built against.
RewriteOptions defaultRewriteOptions();

/// Turns a compile command into one that parses the plain C++ view of the
/// source: plugin and offload-target flags are dropped (the offload targets
/// reach the front end only, as in the plugin's host compile, for the checks
/// that depend on them), -fopenmp is added (to see declare target regions of
/// already rewritten code), the CPU fallback is kept quiet and the runtime
/// headers are made findable.
clang::tooling::ArgumentsAdjuster
getRewriteArgumentsAdjuster(const RewriteOptions &Opts);

/// The frontend action that analyses one translation unit and records its
/// edits and call sites in `Result`. Problems are reported as diagnostics
/// of the translation unit, each a row of the offload table
/// (core/include/offload/Core/Diagnostics.def).
std::unique_ptr<clang::tooling::FrontendActionFactory>
newRewriteActionFactory(RewriteResult &Result, const RewriteOptions &Opts);

} // namespace rewrite
} // namespace offload

#endif // OFFLOAD_REWRITER_REWRITER_H
