//===- RewriteResult.cpp - edits and call sites of one run ----------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "offload/Rewriter.h"

#include "offload/Core/Diagnostics.h"

#include "clang/Format/Format.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

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

void RewriteResult::setPresumedName(StringRef FilePath, StringRef Name) {
  PresumedNames.emplace(FilePath.str(), Name.str());
}

void RewriteResult::addNoDirectives(StringRef FilePath, unsigned Begin,
                                    unsigned End) {
  NoDirectives[FilePath.str()].emplace_back(Begin, End);
}

void RewriteResult::addCall(CallExplanation Call) {
  if (CallLocs.insert({Call.File, Call.Line, Call.Column}).second)
    Calls.push_back(std::move(Call));
}

void RewriteResult::addLoop(LoopExplanation Loop) {
  if (LoopLocs.insert({Loop.File, Loop.Line, Loop.Column}).second)
    Loops.push_back(std::move(Loop));
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

/// `#line N "Name"`, the directive that numbers the next line N.
static std::string lineDirective(unsigned N, StringRef Name) {
  std::string Out = "#line " + std::to_string(N) + " \"";
  for (char C : Name) {
    if (C == '\\' || C == '"')
      Out += '\\';
    Out += C;
  }
  return Out + "\"\n";
}

/// `Reps` with a `#line` directive after each group of edits that changes
/// the number of lines: the original lines after it keep their numbers
/// (`__LINE__`, `assert`'s message, the compilers' diagnostics). The
/// directive goes where the output next starts a line: after the group's
/// last edit if its new text ends one, else before the next original line.
/// Edits that start before that point belong to the group.
static Replacements
keepLineNumbers(StringRef File, StringRef Name, StringRef Code,
                const Replacements &Reps,
                ArrayRef<std::pair<unsigned, unsigned>> NoDirectives) {
  std::vector<Replacement> In(Reps.begin(), Reps.end());
  Replacements Out;
  long Drift = 0;
  auto LineOf = [&](unsigned Offset) {
    return unsigned(Code.take_front(Offset).count('\n')) + 1;
  };
  for (size_t I = 0; I < In.size(); ++I) {
    const Replacement &R = In[I];
    StringRef Old = Code.substr(R.getOffset(), R.getLength());
    std::string Text = R.getReplacementText().str();
    Drift += long(StringRef(Text).count('\n')) - long(Old.count('\n'));
    const unsigned End = R.getOffset() + R.getLength();
    const bool LineStart =
        Text.empty() ? R.getOffset() == 0 || Code[R.getOffset() - 1] == '\n'
                     : Text.back() == '\n';
    std::optional<unsigned> Sync;
    if (Drift) {
      unsigned From = End;
      // Not inside a macro's invocation: after its line.
      for (auto [B, E] : NoDirectives)
        if (B < End && End <= E)
          From = std::max(From, E + 1);
      if (LineStart && From == End)
        Sync = End;
      else if (size_t NL = Code.find('\n', From); NL != StringRef::npos)
        Sync = unsigned(NL + 1);
    }
    if (Sync && *Sync < Code.size() &&
        (I + 1 == In.size() || In[I + 1].getOffset() > *Sync)) {
      if (*Sync == End)
        Text += lineDirective(LineOf(End), Name);
      else
        cantFail(Out.add(
            Replacement(File, *Sync, 0, lineDirective(LineOf(*Sync), Name))));
      Drift = 0;
    }
    cantFail(Out.add(Replacement(File, R.getOffset(), R.getLength(), Text)));
  }
  return Out;
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
    std::optional<std::string> Text = Code(File);
    if (!Text) {
      report(Diags, clang::SourceLocation(), DiagId::ToolEditFailed)
          << ("cannot read '" + File + "'");
      return std::nullopt;
    }
    if (!Formatted.empty()) {
      Expected<Replacements> WithFormat =
          formatEdits(File, *Text, Reps, Formatted);
      if (!WithFormat) {
        report(Diags, clang::SourceLocation(), DiagId::ToolEditFailed)
            << toString(WithFormat.takeError());
        return std::nullopt;
      }
      Reps = std::move(*WithFormat);
    }
    auto Name = PresumedNames.find(File);
    auto Macros = NoDirectives.find(File);
    Out[File] = keepLineNumbers(
        File, Name != PresumedNames.end() ? StringRef(Name->second) : File,
        *Text, Reps,
        Macros != NoDirectives.end()
            ? ArrayRef<std::pair<unsigned, unsigned>>(Macros->second)
            : ArrayRef<std::pair<unsigned, unsigned>>());
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
  for (auto [I, P] : enumerate(Call.Params)) {
    Rows.push_back({std::to_string(I), P.Name.empty() ? "(unnamed)" : P.Name,
                    P.Type, P.Transfer, P.Size, P.Row});
    // A struct's span fields, indented under it.
    for (const ParamExplanation &F : P.Fields)
      Rows.push_back({"", "  " + F.Name, F.Type, F.Transfer, F.Size, F.Row});
  }
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

void printExplanation(raw_ostream &OS, const LoopExplanation &Loop) {
  OS << Loop.File << ":" << Loop.Line << ":" << Loop.Column
     << ": loop keeps on the device: " << join(Loop.Held, ", ") << "\n";
}

} // namespace rewrite
} // namespace offload
