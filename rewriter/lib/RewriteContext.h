//===- RewriteContext.h - one translation unit being rewritten --*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// What the parts of the rewriter share while they look at one translation
// unit: the AST, where diagnostics go, which files are the user's (and so
// may be edited), and where the edits are recorded.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_REWRITER_REWRITECONTEXT_H
#define OFFLOAD_REWRITER_REWRITECONTEXT_H

#include "offload/Rewriter.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <set>
#include <string>

namespace offload {
namespace rewrite {

class RewriteContext {
public:
  RewriteContext(clang::ASTContext &Ctx, RewriteResult &Result,
                 const RewriteOptions &Opts);

  clang::ASTContext &Ctx;
  clang::SourceManager &SM;
  clang::DiagnosticsEngine &Diags;
  RewriteResult &Result;
  const RewriteOptions &Opts;

  const clang::LangOptions &langOpts() const { return Ctx.getLangOpts(); }

  /// Absolute path of a file ("" for buffers without one).
  std::string filePath(clang::FileID FID);
  /// Whether the code at `Loc` is the user's: not a system header, not the
  /// offload headers themselves.
  bool isUserFile(clang::SourceLocation Loc);
  /// Records an edit (RewriteResult::addEdit) of file `FID`.
  void edit(clang::FileID FID, unsigned Offset, unsigned Length,
            llvm::StringRef Text, unsigned Rank, bool Format = false);
  /// Notes that the file's code needs the bridge (an offload() call left as
  /// it is runs through the CPU fallback, which OpenMP builds take from
  /// the bridge).
  void needsBridge(clang::FileID FID) { Edited.insert(FID); }
  /// The files edited so far, and those that need the bridge.
  const std::set<clang::FileID> &editedFiles() const { return Edited; }

private:
  std::string ShimDir;
  std::map<clang::FileID, std::string> Paths;
  std::set<clang::FileID> Edited;
};

} // namespace rewrite
} // namespace offload

#endif // OFFLOAD_REWRITER_REWRITECONTEXT_H
