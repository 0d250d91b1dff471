//===- Lowering.cpp - the OpenMP text of one offload() call ---------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace offload {
namespace rewrite {

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

/// `Text` as a C string literal.
static std::string cString(StringRef Text) {
  std::string Out = "\"";
  for (char C : Text) {
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out + "\"";
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
    if (C == '(' || C == '[')
      ++Depth;
    else if (C == ')' || C == ']')
      --Depth;
    else if (C == ',' && Depth == 0)
      return true;
  }
  return false;
}

namespace {

/// The call's own variables, `__ofld_` and one of these: the launch, the
/// extent, the grid, the aliases.
constexpr StringLiteral FixedNames[] = {"l", "e", "g", "u"};
/// What a parameter's variable may carry after its name: the data, the
/// kept temporary, the reduction and its accumulator, the scratch copy, a
/// struct's device view (and `_f<k>`, `_n<k>`: its span fields' data and
/// sizes).
constexpr StringLiteral Suffixes[] = {"_d", "_t", "_r", "_a", "_s", "_v"};

/// The names of one call's variables: after the kernel's parameters where
/// they are distinct identifiers, else numbered.
struct Names {
  std::vector<std::string> Param, Data;

  explicit Names(ArrayRef<LoweredParam> Params) {
    StringSet<> Seen;
    bool ByName = true;
    for (const LoweredParam &P : Params)
      ByName &= !P.Name.empty() && Seen.insert(P.Name).second;
    // A parameter named `g` would be the grid; `x_d` both a parameter and
    // the data of `x`.
    for (StringRef F : FixedNames)
      ByName &= !Seen.contains(F);
    for (const LoweredParam &P : Params) {
      for (StringRef S : Suffixes)
        ByName &= !Seen.contains(P.Name + S.str());
      for (size_t K = 0; K < P.Fields.size(); ++K)
        ByName &= !Seen.contains(P.Name + "_f" + utostr(K)) &&
                  !Seen.contains(P.Name + "_n" + utostr(K));
    }
    for (auto [I, P] : enumerate(Params)) {
      std::string Base = ByName ? P.Name : "p" + utostr(I);
      Param.push_back("__ofld_" + Base);
      Data.push_back("__ofld_" + Base + "_d");
    }
  }
};

/// The host data and size of span field `K` of parameter `I`.
std::string fieldData(const Names &N, size_t I, size_t K) {
  return N.Param[I] + "_f" + utostr(K);
}
std::string fieldSize(const Names &N, size_t I, size_t K) {
  return N.Param[I] + "_n" + utostr(K);
}

std::string mapClause(MapKind M, StringRef Section) {
  return ("map(" + mapTypeName(M) + " : " + Section + ")").str();
}

StringRef bridgeKind(MapKind M) {
  switch (M) {
  case MapKind::To:
    return "ofld::bridge::to";
  case MapKind::From:
    return "ofld::bridge::from";
  default:
    return "ofld::bridge::tofrom";
  }
}

/// One range the bridge checks and maps (`ofld::bridge::mapped`), named as
/// the call spells its argument.
std::string mappedRange(const Twine &Data, const Twine &Count, MapKind M,
                        StringRef Argument) {
  return ("ofld::bridge::mapped(" + Data + ", " + Count + ", " + bridgeKind(M) +
          ", " + cString(oneLine(Argument)) + ")")
      .str();
}

/// The first fields of a call's `ofld::bridge::site`: its kernel, file and
/// line (the original's, where the call's text moved).
std::string siteFields(const LoweredCall &Call) {
  return "\"" + Call.KernelName + "\", __FILE__, " +
         (Call.Line ? utostr(Call.Line) : std::string("__LINE__"));
}

/// `Declarator` with `Name` in place of `%s`.
std::string declare(StringRef Declarator, StringRef Name) {
  size_t At = Declarator.find("%s");
  if (At == StringRef::npos)
    return (Declarator + " " + Name).str();
  return (Declarator.take_front(At) + Name + Declarator.drop_front(At + 2))
      .str();
}

/// In a macro argument only parentheses keep a comma from splitting it;
/// offload()'s own did that for the arguments, so add ours.
std::string initializer(const LoweredCall &Call, StringRef Text) {
  if (!Call.InMacroArgument || Text.starts_with("{"))
    return Text.str();
  return ("(" + Text + ")").str();
}

/// The arguments bound exactly as offload()'s `const P&` parameters would,
/// then spans taken apart: OpenMP maps array sections, not span objects.
std::string bindArguments(const LoweredCall &Call, const Names &N) {
  std::string Out;
  raw_string_ostream OS(Out);
  for (auto [I, P] : enumerate(Call.Params)) {
    std::string Decl = declare(P.Declarator, N.Param[I]);
    if (!P.KeepTemporary) {
      OS << Decl << " = " << initializer(Call, P.Argument) << ";\n";
      continue;
    }
    std::string Temp = N.Param[I] + "_t";
    OS << "auto &&" << Temp << " = " << initializer(Call, P.Argument) << ";\n";
    OS << Decl << " = std::move(" << Temp << ");\n";
  }
  for (auto [I, P] : enumerate(Call.Params))
    if (P.Kind == PayloadKind::Span && !P.Scratch)
      OS << "auto *" << N.Data[I] << " = " << N.Param[I] << ".data();\n";
  // A struct's span fields, each as a span parameter's data and size.
  for (auto [I, P] : enumerate(Call.Params))
    for (auto [K, F] : enumerate(P.Fields)) {
      std::string Field = N.Param[I] + "." + F.Access;
      OS << "auto *" << fieldData(N, I, K) << " = " << Field << ".data();\n";
      OS << "const std::size_t " << fieldSize(N, I, K) << " = " << Field
         << ".size();\n";
    }
  return Out;
}

/// The [[offload::in]] arguments' data, once the grid says where the launch
/// runs: a span's elements or the object, through a pointer (the mapped
/// section).
std::string scratchCopies(const LoweredCall &Call, const Names &N) {
  std::string Out;
  raw_string_ostream OS(Out);
  for (auto [I, P] : enumerate(Call.Params)) {
    if (!P.Scratch)
      continue;
    bool Span = P.Kind == PayloadKind::Span;
    std::string Copy = N.Param[I] + "_s";
    OS << "ofld::bridge::scratch " << Copy << "("
       << (Span ? N.Param[I] + ".data(), " + N.Param[I] + ".size()"
                : "&" + N.Param[I] + ", 1")
       << ", __ofld_g);\nauto *" << N.Data[I] << " = " << Copy << ".data();\n";
  }
  return Out;
}

/// The launch: shape, device and what the kernel calls need. The default
/// shape's extent is the kernel's bounds check, computed from the bound
/// arguments; where the kernel's body was not read, the launch must give
/// its grid. Then the reductions' thread values.
std::string launchGrid(const LoweredCall &Call, const Names &N) {
  std::string Out;
  raw_string_ostream OS(Out);
  SmallVector<std::string, 3> Extent(3, "ofld::detail::extent_unread");
  if (Call.Bound)
    for (auto [D, Bound] : enumerate(Call.Bound->Dims))
      Extent[D] = renderExtent(Bound, N.Param, BoundStyle::Code);
  // Parenthesised in a macro argument, where braces keep no comma in.
  std::string ExtentList = join(Extent, ", ");
  OS << "const long long __ofld_e[3]"
     << (Call.InMacroArgument ? "(" + ExtentList + ")"
                              : " = {" + ExtentList + "}")
     << ";\n";
  // The bytes of the large by-value objects each kernel thread copies.
  SmallVector<std::string, 2> Copies;
  for (auto [I, P] : enumerate(Call.Params))
    if (P.CopiedOnStack)
      Copies.push_back("sizeof(" + N.Param[I] + ")");
  std::string Flags = Call.Syncs ? "ofld::bridge::synchronises" : "";
  if (Call.Warp)
    Flags +=
        (Flags.empty() ? "" : " | ") + std::string("ofld::bridge::warp_level");
  if (Call.WarnedConst)
    Flags += (Flags.empty() ? "" : " | ") +
             std::string("ofld::bridge::warned_const");
  if (Flags.empty() && !Copies.empty())
    Flags = "0";
  OS << "ofld::bridge::grid __ofld_g = ofld::bridge::shape({"
     << siteFields(Call) << (Flags.empty() ? "" : ", ") << Flags
     << (Copies.empty() ? "" : ", ") << join(Copies, " + ") << "}, "
     << (Call.Launch ? "&__ofld_l" : "nullptr") << ", __ofld_e);\n";
  // Reductions: one value per kernel thread comes back, the host folds them
  // in the plugin's order (ofld::bridge::reduction).
  for (auto [I, P] : enumerate(Call.Params))
    if (!P.Reduction.empty())
      OS << "ofld::bridge::reduction<" << P.Reduction << "> " << N.Param[I]
         << "_r(__ofld_g);\nauto *" << N.Data[I] << " = " << N.Param[I]
         << "_r.data();\n";
  return Out;
}

/// The mapped arguments, named as the call spells them for messages.
/// Those that overlap: the bridge maps their union (aliases). A kernel that
/// synchronises may run on the host instead (g++'s teams), with its
/// arguments' device copies: aliases brings them over.
std::string aliases(const LoweredCall &Call, const Names &N) {
  SmallVector<std::string, 8> Ranges;
  for (auto [I, P] : enumerate(Call.Params)) {
    if (!P.Reduction.empty())
      continue; // the thread values are the bridge's own memory
    if (P.Kind == PayloadKind::Span)
      Ranges.push_back(
          mappedRange(N.Data[I], N.Param[I] + ".size()", P.Map, P.Argument));
    else if (P.Scratch)
      Ranges.push_back(mappedRange(N.Data[I], "1", P.Map, P.Argument));
    else if (P.Kind == PayloadKind::Object || P.InDeviceMemory)
      Ranges.push_back(mappedRange("&" + N.Param[I], "1",
                                   P.InDeviceMemory ? MapKind::To : P.Map,
                                   P.Argument));
    for (auto [K, F] : enumerate(P.Fields))
      Ranges.push_back(
          mappedRange(fieldData(N, I, K), fieldSize(N, I, K), F.Map, F.Name));
  }
  // Every launch that maps data: mappings the device cannot hold are
  // reported before they abort the OpenMP runtime, writes into a region's
  // read-only ranges are marked (the bridge).
  if (Ranges.empty())
    return "";
  return "ofld::bridge::aliases __ofld_u(__ofld_g, {" + join(Ranges, ", ") +
         "});\n";
}

/// The clause that sets the teams and threads, per target form.
std::string shapeClause(Target Form) {
  switch (Form) {
  case Target::Portable:
    return "OFFLOAD_BRIDGE_GRID(__ofld_g)";
  case Target::Clang:
    return "ompx_bare num_teams(__ofld_g.hw[0], __ofld_g.hw[1], "
           "__ofld_g.hw[2]) thread_limit(__ofld_g.hw[3], "
           "__ofld_g.hw[4], __ofld_g.hw[5]) "
           "ompx_dyn_cgroup_mem(__ofld_g.shared_bytes)";
  case Target::OpenMP:
    return "num_teams(__ofld_g.teams) thread_limit(__ofld_g.threads)";
  }
  llvm_unreachable("unknown target form");
}

/// The `target teams` construct's line, with each argument's map clause.
std::string targetDirective(const LoweredCall &Call, const Names &N) {
  SmallVector<std::string, 8> Clauses;
  Clauses.push_back(shapeClause(Call.Form));
  Clauses.push_back("device(__ofld_g.device)");
  std::string FirstPrivate = "firstprivate(__ofld_g";
  for (auto [I, P] : enumerate(Call.Params)) {
    if (!P.Reduction.empty()) {
      Clauses.push_back(mapClause(
          MapKind::From, N.Data[I] + "[0 : " + N.Param[I] + "_r.size()]"));
      continue;
    }
    switch (P.Kind) {
    case PayloadKind::Value:
      if (P.InDeviceMemory)
        Clauses.push_back(mapClause(MapKind::To, N.Param[I]));
      else
        FirstPrivate += ", " + N.Param[I];
      break;
    case PayloadKind::Object:
      Clauses.push_back(
          mapClause(P.Map, P.Scratch ? N.Data[I] + "[0 : 1]" : N.Param[I]));
      break;
    case PayloadKind::Span:
      Clauses.push_back(
          mapClause(P.Map, N.Data[I] + "[0 : " + N.Param[I] + ".size()]"));
      // The span object, for its size.
      FirstPrivate += ", " + N.Param[I];
      break;
    case PayloadKind::Aggregate:
      // Each span field's elements; the object itself, whose fields the
      // region points at the device's copies (runKernel).
      for (auto [K, F] : enumerate(P.Fields))
        Clauses.push_back(mapClause(
            F.Map, fieldData(N, I, K) + "[0 : " + fieldSize(N, I, K) + "]"));
      FirstPrivate += ", " + N.Param[I];
      break;
    }
  }
  Clauses.push_back(FirstPrivate + ")");
  std::string Directive = "omp target teams " + join(Clauses, " ");
  if (Call.InMacroArgument)
    return "_Pragma(\"" + Directive + "\")\n";
  return "#pragma " + Directive + "\n";
}

/// The kernel call: span parameters are rebuilt from the mapped sections,
/// reductions accumulate per thread and are folded after the launch.
std::string runKernel(const LoweredCall &Call, const Names &N) {
  SmallVector<std::string, 8> Args;
  std::string Views, Accumulators, Stores, Folds;
  for (auto [I, P] : enumerate(Call.Params)) {
    if (P.Kind == PayloadKind::Aggregate) {
      // Each kernel thread's copy of the object, its span fields viewing
      // the mapped sections (the plugin's device entry does the same); an
      // `S&` kernel writes this copy, as it writes the plugin's.
      std::string View = N.Param[I] + "_v";
      Views += "auto " + View + " = " + N.Param[I] + "; ";
      for (auto [K, F] : enumerate(P.Fields)) {
        std::string Field = View + "." + F.Access;
        Views += Field + " = ofld::bridge::view(" + Field + ", " +
                 fieldData(N, I, K) + "); ";
      }
      Args.push_back(View);
      continue;
    }
    if (!P.Reduction.empty()) {
      std::string Acc = N.Param[I] + "_a";
      Accumulators +=
          "ofld::bridge::accumulator<" + P.Reduction + "> " + Acc + "; ";
      Stores += Acc + ".store(" + N.Data[I] + "); ";
      Folds += N.Param[I] + "_r.fold(" + N.Param[I] + ");\n";
      Args.push_back(Acc + ".get()");
      continue;
    }
    Args.push_back(P.Kind == PayloadKind::Span
                       ? "ofld::bridge::view(" + N.Param[I] + ", " + N.Data[I] +
                             ")"
                   : P.Scratch ? "*" + N.Data[I]
                               : N.Param[I]);
  }
  // The kernel in parentheses: no argument-dependent lookup (a kernel named
  // `apply` called with a std::span would find std::apply).
  return "ofld::bridge::" +
         std::string(Call.Form == Target::Clang ? "run_bare" : "run") +
         "(__ofld_g, [&] { " + Views + Accumulators + "(" + Call.Kernel + ")(" +
         join(Args, ", ") + "); " + Stores + "});\n" + Folds + "}";
}

/// Indents by hand what clang-format does not see (a block in a macro
/// argument): its lines two more than the line of the call, its braces as
/// that line.
std::string indentBlock(StringRef Block, StringRef Indent) {
  std::string Indented;
  SmallVector<StringRef, 16> Lines;
  Block.split(Lines, '\n');
  for (auto [I, Line] : enumerate(Lines)) {
    if (I)
      Indented += "\n" + Indent.str();
    if (I && Line != "}")
      Indented += "  ";
    Indented += Line;
  }
  return Indented;
}

} // namespace

std::string lowerCall(const LoweredCall &Call) {
  Names N(Call.Params);
  std::string Out =
      "{ // " + CallMarker.str() + " " + oneLine(Call.Original) + ";\n";
  if (Call.Launch)
    Out += "const ofld::launch &__ofld_l = " + initializer(Call, *Call.Launch) +
           ";\n";
  Out += bindArguments(Call, N);
  Out += launchGrid(Call, N);
  for (const std::string &Hold : Call.LoopHolds)
    Out += Hold + ".hold(__ofld_g);\n";
  Out += scratchCopies(Call, N);
  Out += aliases(Call, N);
  Out += targetDirective(Call, N);
  Out += runKernel(Call, N);
  if (!Call.InMacroArgument)
    return Out; // formatted later
  return indentBlock(Out, Call.Indent);
}

std::string lowerGroupBegin(const LoweredCall &First, ArrayRef<HeldRange> Held,
                            bool InMacroArgument) {
  std::string Out;
  raw_string_ostream OS(Out);
  OS << "{ // " << CallMarker
     << " launch group: the data these launches share stays on the device\n";
  SmallVector<std::string, 4> Clauses, Ranges;
  for (auto [I, H] : enumerate(Held)) {
    std::string Name = "__ofld_h" + utostr(I);
    if (H.Kind == PayloadKind::Span) {
      OS << declare(H.Declarator, Name) << " = " << H.Variable << ";\n";
      OS << "auto *" << Name << "_d = " << Name << ".data();\n";
      Clauses.push_back(mapClause(H.Map, Name + "_d[0 : " + Name + ".size()]"));
      Ranges.push_back(
          mappedRange(Name + "_d", Name + ".size()", H.Map, H.Argument));
    } else {
      Clauses.push_back(mapClause(H.Map, H.Variable));
      Ranges.push_back(mappedRange("&" + H.Variable, "1", H.Map, H.Argument));
    }
  }
  // Held only where the device can hold it (the plugin's launch groups).
  OS << "const bool __ofld_held = ofld::bridge::group_fits({"
     << siteFields(First) << "}, {" << join(Ranges, ", ") << "});\n";
  std::string Directive =
      "omp target data device(ofld::bridge::default_device()) " +
      join(Clauses, " ") + " if(__ofld_held)";
  if (InMacroArgument)
    OS << "_Pragma(\"" << Directive << "\")\n{\n";
  else
    OS << "#pragma " << Directive << "\n{\n";
  return Out;
}

std::string lowerGroupEnd() { return "\n}\n}"; }

std::string loopHoldName(unsigned Depth) {
  return "__ofld_loop" + utostr(Depth);
}

std::string lowerLoopBegin(StringRef Name, ArrayRef<HeldRange> Held,
                           ArrayRef<std::string> Watch) {
  std::string Out;
  raw_string_ostream OS(Out);
  SmallVector<std::string, 4> Names, Ranges;
  for (const HeldRange &H : Held)
    Names.push_back(H.Variable + " (" + mapTypeName(H.Map).str() + ")");
  OS << "{ // " << CallMarker << " loop residency: the loop keeps "
     << join(Names, ", ") << " on the device\n";
  for (auto [I, H] : enumerate(Held)) {
    if (H.Kind == PayloadKind::Span) {
      std::string Bound = Name.str() + "_" + utostr(I);
      OS << declare(H.Declarator, Bound) << " = " << H.Variable << ";\n";
      Ranges.push_back(
          mappedRange(Bound + ".data()", Bound + ".size()", H.Map, H.Argument));
    } else {
      Ranges.push_back(mappedRange("&" + H.Variable, "1", H.Map, H.Argument));
    }
  }
  OS << "ofld::bridge::loop_hold " << Name << "({" << join(Ranges, ", ")
     << "});\n";
  for (const std::string &W : Watch)
    OS << Name << ".watch(" << W << ");\n";
  return Out;
}

std::string lowerLoopEnd() { return "\n}"; }

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

std::string valueParamType(StringRef Type) {
  return ("ofld::bridge::value_param<" + Type + ">").str();
}

std::string spanParamType(StringRef Element, StringRef Extent) {
  return ("ofld::bridge::span_param<" + Element +
          (Extent.empty() ? "" : ", " + Extent) + ">")
      .str();
}

} // namespace rewrite
} // namespace offload
