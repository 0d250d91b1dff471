//===- RewriteContext.cpp - one translation unit being rewritten ----------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "RewriteContext.h"

#include "clang/Basic/FileManager.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;
using namespace llvm;

namespace offload {
namespace rewrite {

RewriteContext::RewriteContext(ASTContext &Ctx, RewriteResult &Result,
                               const RewriteOptions &Opts)
    : Ctx(Ctx), SM(Ctx.getSourceManager()), Diags(Ctx.getDiagnostics()),
      Result(Result), Opts(Opts) {
  if (!Opts.ShimIncludeDir.empty()) {
    SmallString<256> Real;
    if (!sys::fs::real_path(Opts.ShimIncludeDir, Real))
      ShimDir = (Real + "/").str();
  }
}

std::string RewriteContext::filePath(FileID FID) {
  auto It = Paths.find(FID);
  if (It != Paths.end())
    return It->second;
  std::string Path;
  if (OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID)) {
    Path = SM.getFileManager().getCanonicalName(*FE).str();
    if (Path.empty()) {
      SmallString<256> P(FE->getName());
      SM.getFileManager().makeAbsolutePath(P);
      sys::path::remove_dots(P, true);
      Path = P.str().str();
    }
  }
  return Paths[FID] = Path;
}

bool RewriteContext::isUserFile(SourceLocation Loc) {
  Loc = SM.getFileLoc(Loc);
  if (Loc.isInvalid() || SM.isInSystemHeader(Loc))
    return false;
  std::string Path = filePath(SM.getFileID(Loc));
  if (Path.empty())
    return false;
  // offload.hpp itself (and the bridge) are never rewritten.
  return ShimDir.empty() || !StringRef(Path).starts_with(ShimDir);
}

void RewriteContext::edit(FileID FID, unsigned Offset, unsigned Length,
                          StringRef Text, unsigned Rank, bool Format) {
  Result.addEdit(filePath(FID), Offset, Length, Text, Rank, Format);
  if (Edited.insert(FID).second)
    Result.setPresumedName(
        filePath(FID),
        SM.getPresumedLoc(SM.getLocForStartOfFile(FID)).getFilename());
}

} // namespace rewrite
} // namespace offload
