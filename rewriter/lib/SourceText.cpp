//===- SourceText.cpp - where in the files the rewriter edits -------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "SourceText.h"

#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;
using namespace llvm;

namespace offload {
namespace rewrite {

std::optional<FileRange> fileRange(const SourceManager &SM,
                                   const LangOptions &LO, SourceRange R) {
  CharSourceRange CR =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(R), SM, LO);
  if (CR.isInvalid())
    return std::nullopt;
  auto [FID, Begin] = SM.getDecomposedLoc(CR.getBegin());
  auto [EndFID, End] = SM.getDecomposedLoc(CR.getEnd());
  if (FID != EndFID || End < Begin)
    return std::nullopt;
  return FileRange{FID, Begin, End};
}

std::string fileText(const SourceManager &SM, const LangOptions &LO,
                     SourceRange R) {
  std::optional<FileRange> FR = fileRange(SM, LO, R);
  if (!FR)
    return "";
  return SM.getBufferData(FR->File).slice(FR->Begin, FR->End).str();
}

std::optional<unsigned> semicolonAfter(const SourceManager &SM,
                                       const LangOptions &LO, FileID File,
                                       unsigned End) {
  // findNextToken starts after the token at its location: give it the last
  // character before End, which is the end of the call's `)`.
  if (!End)
    return std::nullopt;
  SourceLocation Last = SM.getComposedLoc(File, End - 1);
  std::optional<Token> Next = Lexer::findNextToken(Last, SM, LO);
  if (!Next || !Next->is(tok::semi))
    return std::nullopt;
  return SM.getFileOffset(Next->getEndLoc());
}

unsigned attributeListBegin(const SourceManager &SM, const LangOptions &LO,
                            FileID File, unsigned Offset) {
  auto Previous = [&](unsigned At) {
    return Lexer::findPreviousToken(SM.getComposedLoc(File, At), SM, LO,
                                    /*IncludeComments=*/false);
  };
  for (;;) {
    std::optional<Token> A = Previous(Offset);
    if (!A || !A->isOneOf(tok::l_square, tok::l_paren))
      return Offset;
    unsigned AOff = SM.getFileOffset(A->getLocation());
    std::optional<Token> B = Previous(AOff);
    if (!B || !B->is(A->getKind()))
      return Offset;
    unsigned BOff = SM.getFileOffset(B->getLocation());
    if (A->is(tok::l_square)) { // [[
      Offset = BOff;
      continue;
    }
    std::optional<Token> Kw = Previous(BOff); // __attribute__((
    if (!Kw || !Kw->is(tok::kw___attribute))
      return Offset;
    Offset = SM.getFileOffset(Kw->getLocation());
  }
}

unsigned lineStart(StringRef Buffer, unsigned Offset) {
  size_t NL = Buffer.take_front(Offset).rfind('\n');
  return NL == StringRef::npos ? 0 : unsigned(NL + 1);
}

std::optional<StringRef> indentBefore(StringRef Buffer, unsigned Offset) {
  StringRef Prefix = Buffer.slice(lineStart(Buffer, Offset), Offset);
  if (!all_of(Prefix, [](char C) { return C == ' ' || C == '\t'; }))
    return std::nullopt;
  return Prefix;
}

bool restOfLineIsEmpty(StringRef Buffer, unsigned Offset) {
  StringRef Rest = Buffer.drop_front(Offset);
  Rest = Rest.take_until([](char C) { return C == '\n'; }).ltrim(" \t\r");
  return Rest.empty() || Rest.starts_with("//");
}

} // namespace rewrite
} // namespace offload
