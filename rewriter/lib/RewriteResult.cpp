//===- RewriteResult.cpp - edits and call sites of one run ----------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "offload/Rewriter.h"

#include "offload/Core/Diagnostics.h"

#include "clang/Format/Format.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <array>

using namespace llvm;
using clang::tooling::Replacement;
using clang::tooling::Replacements;

namespace offload {
namespace rewrite {

void RewriteResult::addEdit(StringRef FilePath, unsigned Offset,
                            unsigned Length, StringRef Text, unsigned Rank,
                            bool Format) {
  Edits[FilePath.str()].insert(
      Edit{Offset, Length, Rank, Text.str(), NextSeq++, Format});
}

void RewriteResult::addCall(CallExplanation Call) {
  if (CallLocs.insert({Call.File, Call.Line, Call.Column}).second)
    Calls.push_back(std::move(Call));
}

/// Formats the new text of the edits marked `Format` (their lines only: the
/// code around them stays as its author wrote it) and returns the edits
/// that do both.
static Expected<Replacements> formatEdits(StringRef File, StringRef Code,
                                          const Replacements &Reps,
                                          ArrayRef<unsigned> Offsets) {
  Expected<std::string> New = clang::tooling::applyAllReplacements(Code, Reps);
  if (!New)
    return New.takeError();
  // Where each formatted edit's new text lies in the new code.
  std::vector<clang::tooling::Range> Shifted;
  for (unsigned Offset : Offsets) {
    long Delta = 0;
    unsigned Size = 0;
    for (const Replacement &R : Reps) {
      if (R.getOffset() < Offset)
        Delta += long(R.getReplacementText().size()) - long(R.getLength());
      else if (R.getOffset() == Offset)
        Size = R.getReplacementText().size();
    }
    Shifted.emplace_back(unsigned(long(Offset) + Delta), Size);
  }
  clang::format::FormatStyle Style = clang::format::getLLVMStyle();
  Replacements Formatting = clang::format::reformat(Style, *New, Shifted, File);
  return Reps.merge(Formatting);
}

std::optional<std::map<std::string, Replacements>> RewriteResult::replacements(
    clang::DiagnosticsEngine &Diags,
    function_ref<std::optional<std::string>(StringRef)> Code) const {
  std::map<std::string, Replacements> Out;
  for (const auto &[File, Set] : Edits) {
    std::vector<Edit> Sorted(Set.begin(), Set.end());
    llvm::sort(Sorted, [](const Edit &A, const Edit &B) {
      return std::tie(A.Offset, A.Rank, A.Seq) <
             std::tie(B.Offset, B.Rank, B.Seq);
    });
    Replacements Reps;
    std::vector<unsigned> Formatted;
    // Edits at one offset become one replacement: clang refuses two
    // insertions at one place, since their order would be ambiguous.
    for (size_t I = 0; I < Sorted.size();) {
      unsigned Offset = Sorted[I].Offset, Length = 0;
      std::string Text;
      bool Format = false;
      for (; I < Sorted.size() && Sorted[I].Offset == Offset; ++I) {
        if (Sorted[I].Length && Length) {
          report(Diags, clang::SourceLocation(), DiagId::ToolEditsDisagree)
              << File << Offset;
          return std::nullopt;
        }
        Length = std::max(Length, Sorted[I].Length);
        Text += Sorted[I].Text;
        Format |= Sorted[I].Format;
      }
      if (Error E = Reps.add(Replacement(File, Offset, Length, Text))) {
        report(Diags, clang::SourceLocation(), DiagId::ToolEditFailed)
            << toString(std::move(E));
        return std::nullopt;
      }
      if (Format)
        Formatted.push_back(Offset);
    }
    if (!Formatted.empty()) {
      std::optional<std::string> Text = Code(File);
      if (!Text) {
        report(Diags, clang::SourceLocation(), DiagId::ToolEditFailed)
            << ("cannot read '" + File + "'");
        return std::nullopt;
      }
      Expected<Replacements> WithFormat =
          formatEdits(File, *Text, Reps, Formatted);
      if (!WithFormat) {
        report(Diags, clang::SourceLocation(), DiagId::ToolEditFailed)
            << toString(WithFormat.takeError());
        return std::nullopt;
      }
      Reps = std::move(*WithFormat);
    }
    Out[File] = std::move(Reps);
  }
  return Out;
}

void printExplanation(raw_ostream &OS, const CallExplanation &Call) {
  OS << Call.File << ":" << Call.Line << ":" << Call.Column << ": offload("
     << Call.Kernel << ")\n";
  OS << "  launch: " << Call.Launch << "\n";
  if (Call.Params.empty()) {
    OS << "  (no parameters)\n";
    return;
  }
  // A table: #, parameter, type, transfer, size, table row.
  std::vector<std::array<std::string, 6>> Rows;
  Rows.push_back({"#", "parameter", "type", "transfer", "size", "rule"});
  for (auto [I, P] : enumerate(Call.Params))
    Rows.push_back({std::to_string(I), P.Name.empty() ? "(unnamed)" : P.Name,
                    P.Type, P.Transfer, P.Size, P.Row});
  size_t Width[6] = {};
  for (const auto &R : Rows)
    for (unsigned C = 0; C < 6; ++C)
      Width[C] = std::max(Width[C], R[C].size());
  for (const auto &R : Rows) {
    OS << "   ";
    for (unsigned C = 0; C < 6; ++C) {
      OS << " " << R[C];
      if (C + 1 < 6)
        OS.indent(Width[C] - R[C].size());
    }
    OS << "\n";
  }
}

} // namespace rewrite
} // namespace offload
