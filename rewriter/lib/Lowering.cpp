//===- Lowering.cpp - the OpenMP text of one offload() call ---------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace offload {
namespace rewrite {

std::string paramName(unsigned I) { return "__ofld_p" + utostr(I); }
static std::string dataName(unsigned I) { return "__ofld_d" + utostr(I); }
static std::string countName(unsigned I) { return "__ofld_n" + utostr(I); }
static std::string argName(unsigned I) { return "__ofld_a" + utostr(I); }

/// The original call on one line: it becomes a `//` comment, which must not
/// run on (a trailing backslash) or hold a newline.
static std::string oneLine(StringRef Text) {
  std::string Out;
  bool Space = false;
  for (char C : Text) {
    if (isSpace(C) || C == '\\') {
      Space = !Out.empty();
      continue;
    }
    if (Space)
      Out += ' ';
    Space = false;
    Out += C;
  }
  return Out;
}

bool hasTopLevelComma(StringRef Text) {
  int Depth = 0;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '"' || C == '\'') {
      // Skip the literal; escapes cannot end it.
      for (++I; I < Text.size() && Text[I] != C; ++I)
        if (Text[I] == '\\')
          ++I;
      continue;
    }
    if (C == '/' && I + 1 < Text.size() && Text[I + 1] == '/') {
      I = Text.find('\n', I);
      if (I == StringRef::npos)
        return false;
      continue;
    }
    if (C == '(')
      ++Depth;
    else if (C == ')')
      --Depth;
    else if (C == ',' && Depth == 0)
      return true;
  }
  return false;
}

std::string lowerCall(const LoweredCall &Call) {
  std::string Out;
  raw_string_ostream OS(Out);
  const std::string In = Call.Indent + "  ";
  // In a macro argument only parentheses keep a comma from splitting it;
  // offload()'s own did that for the arguments, so add ours.
  auto Initializer = [&](StringRef Text) {
    if (!Call.InMacroArgument || Text.starts_with("{"))
      return Text.str();
    return ("(" + Text + ")").str();
  };

  OS << "{ // " << CallMarker << " " << oneLine(Call.Original) << "\n";
  if (Call.Launch)
    OS << In << "const ofld::launch &__ofld_l = " << Initializer(*Call.Launch)
       << ";\n";

  // Bind the arguments exactly as offload()'s `const P&` parameters would,
  // then take spans apart: OpenMP maps array sections, not span objects.
  for (auto [I, P] : enumerate(Call.Params)) {
    if (!P.KeepTemporary) {
      OS << In << P.Declarator << " = " << Initializer(P.Argument) << ";\n";
      continue;
    }
    OS << In << "auto &&" << argName(I) << " = " << Initializer(P.Argument)
       << ";\n";
    OS << In << P.Declarator << " = std::move(" << argName(I) << ");\n";
  }
  for (auto [I, P] : enumerate(Call.Params)) {
    if (P.Kind != PayloadKind::Span)
      continue;
    OS << In << "auto *" << dataName(I) << " = " << paramName(I)
       << ".data();\n";
    OS << In << "auto " << countName(I) << " = " << paramName(I)
       << ".size();\n";
  }

  // The default shape follows the first span or array parameter.
  std::string Count = "-1";
  for (auto [I, P] : enumerate(Call.Params)) {
    if (!P.IsArrayLike)
      continue;
    Count = P.Kind == PayloadKind::Span ? countName(I) : utostr(P.Count);
    break;
  }
  OS << In << "ofld::bridge::grid __ofld_g = ofld::bridge::shape("
     << (Call.Launch ? "&__ofld_l" : "nullptr") << ", " << Count << ");\n";

  // The construct: clause list, one clause per line where lines are allowed.
  SmallVector<std::string, 8> Clauses;
  Clauses.push_back(
      "num_teams(__ofld_g.hw[0], __ofld_g.hw[1], __ofld_g.hw[2])");
  Clauses.push_back(
      "thread_limit(__ofld_g.hw[3], __ofld_g.hw[4], __ofld_g.hw[5])");
  std::string FirstPrivate = "firstprivate(__ofld_g";
  for (auto [I, P] : enumerate(Call.Params)) {
    switch (P.Kind) {
    case PayloadKind::Value:
      FirstPrivate += ", " + paramName(I);
      break;
    case PayloadKind::Object:
      Clauses.push_back(
          ("map(" + mapTypeName(P.Map) + ": " + paramName(I) + ")").str());
      break;
    case PayloadKind::Span:
      Clauses.push_back(("map(" + mapTypeName(P.Map) + ": " + dataName(I) +
                         "[0:" + countName(I) + "])")
                            .str());
      break;
    }
  }
  Clauses.push_back(FirstPrivate + ")");
  const char *Head = "omp target teams ompx_bare device(__ofld_g.device)";
  if (Call.InMacroArgument) {
    OS << In << "_Pragma(\"" << Head;
    for (const std::string &C : Clauses)
      OS << " " << C;
    OS << "\")\n";
  } else {
    OS << In << "#pragma " << Head;
    for (const std::string &C : Clauses)
      OS << " \\\n" << In << "    " << C;
    OS << "\n";
  }

  // The kernel call: span parameters are rebuilt from the mapped sections.
  SmallVector<std::string, 8> Args;
  for (auto [I, P] : enumerate(Call.Params))
    Args.push_back(P.Kind == PayloadKind::Span
                       ? "decltype(" + paramName(I) + ")(" + dataName(I) +
                             ", " + countName(I) + ")"
                       : paramName(I));
  OS << In << "ofld::bridge::run_bare(__ofld_g, [&] {\n";
  std::string Line = In + "  " + Call.Kernel + "(";
  const size_t Column = Line.size();
  for (auto [I, A] : enumerate(Args)) {
    std::string Piece = A + (I + 1 < Args.size() ? "," : ");");
    // Greedy wrapping at 80 columns, arguments aligned after the paren.
    if (I && Line.size() + 1 + Piece.size() > 80) {
      OS << Line << "\n";
      Line = std::string(Column, ' ') + Piece;
    } else {
      Line += (I ? " " : "") + Piece;
    }
  }
  if (Args.empty())
    Line += ");";
  OS << Line << "\n" << In << "});\n";
  OS << Call.Indent << "}";
  return Out;
}

std::string declareTargetBegin(StringRef Indent) {
  return (Indent + "#pragma omp declare target\n").str();
}

std::string declareTargetEnd(StringRef Indent) {
  return (Indent + "#pragma omp end declare target\n").str();
}

std::string bridgeInclude(bool Angled) {
  return Angled ? "#include <offload/omp_bridge.hpp>\n"
                : "#include \"offload/omp_bridge.hpp\"\n";
}

} // namespace rewrite
} // namespace offload
