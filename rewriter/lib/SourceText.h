//===- SourceText.h - where in the files the rewriter edits -----*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The rewriter edits text: these map AST ranges to file offsets, and find
// the tokens around them (a call's `;`, the `[[` before an attribute) with
// clang's Lexer, so that comments and macros are read as the compiler reads
// them.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_REWRITER_SOURCETEXT_H
#define OFFLOAD_REWRITER_SOURCETEXT_H

#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace offload {
namespace rewrite {

/// A range of one file's text: [Begin, End) offsets.
struct FileRange {
  clang::FileID File;
  unsigned Begin = 0, End = 0;
};

/// The file text of `R` (tokens included): spelled in one file, or inside
/// one macro argument; nothing for text that a macro body spells.
std::optional<FileRange> fileRange(const clang::SourceManager &SM,
                                   const clang::LangOptions &LO,
                                   clang::SourceRange R);

/// The text of `R` (see fileRange), or "".
std::string fileText(const clang::SourceManager &SM,
                     const clang::LangOptions &LO, clang::SourceRange R);

/// The offset just after the `;` that follows offset `End` of `File`
/// (comments and white space between), if one does.
std::optional<unsigned> semicolonAfter(const clang::SourceManager &SM,
                                       const clang::LangOptions &LO,
                                       clang::FileID File, unsigned End);

/// Where an attribute list that holds the attribute named at `Offset`
/// begins: before its `[[` or `__attribute__((`.
unsigned attributeListBegin(const clang::SourceManager &SM,
                            const clang::LangOptions &LO, clang::FileID File,
                            unsigned Offset);

/// Offset of the start of the line that holds `Offset`.
unsigned lineStart(llvm::StringRef Buffer, unsigned Offset);

/// The spaces and tabs that begin the line holding `Offset`, if only they
/// come before it on that line.
std::optional<llvm::StringRef> indentBefore(llvm::StringRef Buffer,
                                            unsigned Offset);

/// Whether only spaces, tabs or a `//` comment follow `Offset` on its line.
bool restOfLineIsEmpty(llvm::StringRef Buffer, unsigned Offset);

} // namespace rewrite
} // namespace offload

#endif // OFFLOAD_REWRITER_SOURCETEXT_H
