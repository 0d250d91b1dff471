//===- OffloadRewrite.cpp - the offload-rewrite driver --------------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
//   offload-rewrite [options] <source>... [-p <build dir> | -- <flags>]
//
// Rewrites sources that use [[offload::kernel]] and offload() into OpenMP
// offload C++ that compilers without the plugin build (g++, clang). All
// inputs are analysed before anything is written, and nothing is written if
// any of them has an error.
//
//===----------------------------------------------------------------------===//

#include "offload/Rewriter.h"

#include "offload/Core/Diagnostics.h"

#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/ReplacementsYaml.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>
#include <string>
#include <vector>

using namespace clang;
using namespace llvm;
using namespace offload::rewrite;

static cl::OptionCategory Category("offload-rewrite options");

static cl::opt<bool> InPlace("i", cl::desc("Rewrite the files in place"),
                             cl::cat(Category));
static cl::opt<std::string>
    ExportFixes("export-fixes",
                cl::desc("Write the edits to <file> as YAML, in the format "
                         "of clang-apply-replacements"),
                cl::value_desc("file"), cl::cat(Category));
static cl::opt<bool>
    Explain("explain",
            cl::desc("Print, for each call, the kernel, the launch shape and "
                     "each parameter's transfer and size (instead of the "
                     "rewritten source)"),
            cl::cat(Category));
static cl::opt<bool> NoLoopResidency(
    "no-loop-residency",
    cl::desc("Copy the data of every launch in a loop again, as "
             "-fplugin-arg-offload-no-loop-residency does (by default a "
             "loop keeps the data only its launches use on the device)"),
    cl::cat(Category));
static cl::opt<bool> Check("check",
                           cl::desc("Write nothing; exit with status 1 if "
                                    "a source named would change (other "
                                    "files are noted), 2 on errors"),
                           cl::cat(Category));
static cl::opt<Target> Form(
    "target", cl::desc("Which compilers the output is for"),
    cl::values(clEnumValN(Target::Portable, "portable",
                          "any OpenMP compiler: LLVM's bare teams where the "
                          "compiler has them (clang 20+), standard teams "
                          "elsewhere (default)"),
               clEnumValN(Target::Clang, "clang",
                          "clang 20 and later: LLVM's bare teams only"),
               clEnumValN(Target::OpenMP, "openmp",
                          "standard OpenMP teams only (no clang GPU targets)")),
    cl::init(Target::Portable), cl::cat(Category));
static cl::opt<std::string> OffloadInclude(
    "offload-include",
    cl::desc("Directory holding offload/offload.hpp, searched after the "
             "compile command's own include paths"),
    cl::value_desc("dir"), cl::cat(Category));

static cl::extrahelp CommonHelp(tooling::CommonOptionsParser::HelpMessage);
static cl::extrahelp MoreHelp(R"(
Without -i, --export-fixes, --check or --explain, the rewritten sources are
printed to standard output. Nothing is written if any input has an error.

Exit status: 0 done (--check: nothing would change); 1 an error (--check: a
file would change); 2 --check found errors.
)");

static constexpr const char *Tool = "offload-rewrite";

/// The driver's own messages, rows of Diagnostics.def without a source
/// location, printed as `offload-rewrite: error: ...`.
static DiagnosticsEngine &toolDiags() {
  static DiagnosticOptions Opts;
  static TextDiagnosticPrinter Printer(errs(), Opts);
  static DiagnosticsEngine Diags(DiagnosticIDs::create(), Opts, &Printer,
                                 /*ShouldOwnClient=*/false);
  static bool Ready = [] {
    Opts.ShowColors = errs().has_colors();
    Printer.setPrefix(Tool);
    return true;
  }();
  (void)Ready;
  return Diags;
}

static DiagnosticBuilder say(offload::DiagId Id) {
  return offload::report(toolDiags(), SourceLocation(), Id);
}

/// Reports a row with string arguments; returns the exit status 1.
static int fail(offload::DiagId Id, ArrayRef<std::string> Args = {}) {
  DiagnosticBuilder DB = say(Id);
  for (const std::string &A : Args)
    DB << A;
  return 1;
}

static std::string absolute(StringRef Path) {
  SmallString<256> P(Path);
  sys::fs::make_absolute(P);
  SmallString<256> Real;
  if (!sys::fs::real_path(P, Real))
    return Real.str().str();
  sys::path::remove_dots(P, true);
  return P.str().str();
}

static std::string plural(size_t N, StringRef One) {
  return std::to_string(N) + " " + One.str() + (N == 1 ? "" : "s");
}

/// Writes `Contents` next to `Path` under a temporary name; the caller
/// renames it over `Path` once every file is written. Says why on failure.
static std::optional<std::string> writeTemporary(StringRef Path,
                                                 StringRef Contents) {
  SmallString<256> Temp;
  int FD;
  if (std::error_code EC = sys::fs::createUniqueFile(
          Path + ".offload-rewrite-%%%%%%", FD, Temp)) {
    fail(offload::DiagId::ToolCannotCreate, {Path.str(), EC.message()});
    return std::nullopt;
  }
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Contents;
    OS.close();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      sys::fs::remove(Temp);
      fail(offload::DiagId::ToolCannotWrite, {Temp.str().str(), EC.message()});
      return std::nullopt;
    }
  }
  if (ErrorOr<sys::fs::perms> Perms = sys::fs::getPermissions(Path))
    sys::fs::setPermissions(Temp, *Perms);
  return Temp.str().str();
}

/// Writes every file or none: all temporaries first, then the renames.
static int writeAll(const std::map<std::string, std::string> &Files) {
  std::vector<std::pair<std::string, std::string>> Written;
  auto Discard = [&] {
    for (const auto &[Temp, Path] : Written)
      sys::fs::remove(Temp);
  };
  for (const auto &[Path, Contents] : Files) {
    std::optional<std::string> Temp = writeTemporary(Path, Contents);
    if (!Temp) {
      Discard();
      return 1;
    }
    Written.emplace_back(*Temp, Path);
  }
  for (const auto &[Temp, Path] : Written)
    if (std::error_code EC = sys::fs::rename(Temp, Path)) {
      Discard();
      return fail(offload::DiagId::ToolCannotReplace, {Path, EC.message()});
    }
  return 0;
}

/// CommonOptionsParser falls back to "running without flags" when it finds
/// no compilation database; parsing without the project's flags rewrites
/// nothing reliably, so refuse instead. Flags after `--` need no database.
static bool checkCompilationDatabase(int argc, const char **argv) {
  std::string BuildPath, FirstSource;
  for (int I = 1; I < argc; ++I) {
    StringRef A = argv[I];
    if (A == "--")
      return true;
    if ((A == "-p" || A == "--p") && I + 1 < argc) {
      BuildPath = argv[++I];
      continue;
    }
    if (A.consume_front("-p=") || A.consume_front("--p=")) {
      BuildPath = A.str();
      continue;
    }
    // Options whose value may follow as the next argument.
    if (A == "--export-fixes" || A == "-export-fixes" ||
        A == "--offload-include" || A == "-offload-include" ||
        A == "--extra-arg" || A == "-extra-arg" || A == "--extra-arg-before" ||
        A == "-extra-arg-before") {
      ++I;
      continue;
    }
    if (!A.starts_with("-") && FirstSource.empty())
      FirstSource = A.str();
  }
  if (FirstSource.empty())
    return true; // the parser will say that a source is missing
  std::string Error;
  std::unique_ptr<tooling::CompilationDatabase> DB =
      BuildPath.empty()
          ? tooling::CompilationDatabase::autoDetectFromSource(FirstSource,
                                                               Error)
          : tooling::CompilationDatabase::autoDetectFromDirectory(BuildPath,
                                                                  Error);
  if (DB)
    return true;
  if (BuildPath.empty())
    fail(offload::DiagId::ToolNoDatabaseForSource, {FirstSource});
  else
    fail(offload::DiagId::ToolNoDatabaseInDir, {BuildPath});
  return false;
}

/// With the flags after `--`, ClangTool compiles each source by its
/// absolute path, where the original compile named it as given: that is
/// its `__FILE__`, which the rewrite's `#line` directives repeat. Puts the
/// given path of each relative source back in its command.
static tooling::ArgumentsAdjuster
givenSourcePaths(const std::vector<std::string> &Sources) {
  std::map<std::string, std::string> Given;
  for (const std::string &Path : Sources)
    if (sys::path::is_relative(Path))
      Given.emplace(tooling::getAbsolutePath(Path), Path);
  return [Given](const tooling::CommandLineArguments &Args, StringRef File) {
    auto It = Given.find(File.str());
    if (It == Given.end())
      return Args;
    tooling::CommandLineArguments Out = Args;
    for (std::string &A : Out)
      if (A == It->first)
        A = It->second;
    return Out;
  };
}

/// The headers of an installed package, `<prefix>/include` beside
/// `<prefix>/bin/offload-rewrite`, when they are there; the build tree's
/// tool finds none and keeps the source tree's (defaultRewriteOptions).
static std::string installedIncludeDir(const char *Argv0) {
  std::string Exe = sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&installedIncludeDir));
  if (Exe.empty())
    return {};
  SmallString<256> Dir(sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(Dir, "include");
  SmallString<256> Header(Dir);
  sys::path::append(Header, "offload", "offload.hpp");
  return sys::fs::exists(Header) ? std::string(Dir) : std::string();
}

/// Reads a file for the formatter.
static std::optional<std::string> readFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return std::nullopt;
  return (*Buf)->getBuffer().str();
}

/// Whether --check found a file that would change.
static bool CheckFound = false;

/// The run: 1 on errors, else 0.
static int run(int argc, const char **argv);

int main(int argc, const char **argv) {
  InitLLVM X(argc, argv);
  if (run(argc, argv))
    return Check ? 2 : 1; // --check tells errors from "would change"
  return CheckFound ? 1 : 0;
}

using FileEdits = std::map<std::string, tooling::Replacements>;

/// The new contents of every file that `Reps` changes, into `Changed`;
/// non-zero (reported) where a file cannot be read or edited.
static int applyEdits(const FileEdits &Reps,
                      std::map<std::string, std::string> &Changed) {
  for (const auto &[Path, FileReps] : Reps) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
    if (!Buf)
      return fail(offload::DiagId::ToolCannotRead,
                  {Path, Buf.getError().message()});
    Expected<std::string> New =
        tooling::applyAllReplacements((*Buf)->getBuffer(), FileReps);
    if (!New)
      return fail(offload::DiagId::ToolEditFailed, {toString(New.takeError())});
    if (*New != (*Buf)->getBuffer())
      Changed[Path] = std::move(*New);
  }
  return 0;
}

/// Writes the edits of the changed files to --export-fixes, as
/// clang-apply-replacements reads them.
static int exportFixes(const FileEdits &Reps,
                       const std::map<std::string, std::string> &Changed,
                       const std::string &MainSource) {
  tooling::TranslationUnitReplacements TUR;
  TUR.MainSourceFile = absolute(MainSource);
  for (const auto &[Path, FileReps] : Reps)
    if (Changed.count(Path))
      for (const tooling::Replacement &R : FileReps)
        TUR.Replacements.push_back(R);
  std::string Yaml;
  raw_string_ostream OS(Yaml);
  yaml::Output Out(OS);
  Out << TUR;
  return writeAll({{absolute(ExportFixes), Yaml}});
}

/// Prints each source as rewritten (or as it is), once; notes the other
/// files that changed, which are not printed.
static int printSources(ArrayRef<std::string> Sources,
                        const std::map<std::string, std::string> &Changed) {
  std::set<std::string> Printed;
  for (const std::string &Source : Sources) {
    std::string Path = absolute(Source);
    if (!Printed.insert(Path).second)
      continue;
    auto It = Changed.find(Path);
    if (It != Changed.end()) {
      outs() << It->second;
      continue;
    }
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
    if (!Buf)
      return fail(offload::DiagId::ToolCannotRead,
                  {Path, Buf.getError().message()});
    outs() << (*Buf)->getBuffer();
  }
  for (const auto &[Path, Contents] : Changed)
    if (!Printed.count(Path)) {
      // A note stands alone here: it follows no error it could belong to.
      toolDiags().setLastDiagnosticIgnored(false);
      say(offload::DiagId::ToolOtherFileChanges) << Path;
    }
  return 0;
}

static int run(int argc, const char **argv) {
  if (!checkCompilationDatabase(argc, argv))
    return 1;
  // The parser takes `--` and the flags after it off the arguments.
  const bool FixedFlags =
      llvm::is_contained(ArrayRef(argv, argc), StringRef("--"));
  auto Parser = tooling::CommonOptionsParser::create(
      argc, argv, Category, cl::OneOrMore,
      "Rewrites offload() sources into standard OpenMP offload C++.\n");
  if (!Parser) {
    std::string Message = toString(Parser.takeError());
    errs() << StringRef(Message).rtrim() << "\n";
    return 1;
  }
  if (InPlace && Check)
    return fail(offload::DiagId::ToolInPlaceWithCheck);

  std::vector<std::string> Sources;
  for (const std::string &Path : Parser->getSourcePathList()) {
    if (!sys::fs::exists(Path))
      return fail(offload::DiagId::ToolNoSuchFile, {Path});
    if (sys::fs::is_directory(Path))
      return fail(offload::DiagId::ToolIsDirectory, {Path});
    Sources.push_back(Path);
  }

  RewriteOptions Opts = defaultRewriteOptions();
  Opts.Form = Form;
  Opts.LoopResidency = !NoLoopResidency;
  if (!OffloadInclude.empty())
    Opts.ShimIncludeDir = absolute(OffloadInclude);
  else if (std::string Installed = installedIncludeDir(argv[0]);
           !Installed.empty())
    Opts.ShimIncludeDir = Installed;

  tooling::ClangTool ClangTool(Parser->getCompilations(), Sources);
  ClangTool.appendArgumentsAdjuster(getRewriteArgumentsAdjuster(Opts));
  // A compile database names each source as the build compiles it.
  if (FixedFlags)
    ClangTool.appendArgumentsAdjuster(givenSourcePaths(Sources));
  RewriteResult Result;
  int Status = ClangTool.run(newRewriteActionFactory(Result, Opts).get());
  if (Status || Result.failed())
    return fail(offload::DiagId::ToolInputErrors);

  auto Reps = Result.replacements(toolDiags(), readFile);
  if (!Reps)
    return 1;

  std::map<std::string, std::string> Changed;
  if (int RC = applyEdits(*Reps, Changed))
    return RC;
  if (Explain) {
    for (const CallExplanation &Call : Result.calls())
      printExplanation(outs(), Call);
    for (const LoopExplanation &Loop : Result.loops())
      printExplanation(outs(), Loop);
  }
  if (!ExportFixes.empty())
    if (int RC = exportFixes(*Reps, Changed, Sources.front()))
      return RC;

  std::string Counts = plural(Result.calls().size(), "call") + " in " +
                       plural(Changed.size(), "file");
  if (Check) {
    // The status judges the sources named, as a rewrite to stdout prints
    // them: the output of such a rewrite checks clean although the headers
    // it left as they were would change (noted, as that rewrite does).
    std::set<std::string> Named;
    for (const std::string &Source : Sources)
      Named.insert(absolute(Source));
    for (const auto &[Path, Contents] : Changed) {
      if (!Named.count(Path))
        continue;
      errs() << Tool << ": " << Path << " would be rewritten\n";
      CheckFound = true;
    }
    for (const auto &[Path, Contents] : Changed)
      if (!Named.count(Path)) {
        toolDiags().setLastDiagnosticIgnored(false);
        say(offload::DiagId::ToolOtherFileChanges) << Path;
      }
    errs() << Tool << ": would rewrite " << Counts << "\n";
    return 0;
  }

  const char *Verb = "would rewrite";
  if (InPlace) {
    if (int RC = writeAll(Changed))
      return RC;
    Verb = "rewrote";
  } else if (!Explain && ExportFixes.empty()) {
    Verb = "rewrote";
    if (int RC = printSources(Sources, Changed))
      return RC;
  }
  errs() << Tool << ": " << Verb << " " << Counts;
  if (!ExportFixes.empty())
    errs() << " (edits in " << ExportFixes << ")";
  errs() << "\n";
  return 0;
}
