//===- LoopResidencyTest.cpp - unit tests of the loop residency rules -----===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// A hold the rules allow wrongly changes what a program computes (the host
// reads a stale copy), so each form below that must not be hoisted names the
// use that forbids it, and each form that may names what is held. Functions
// of one parsed source, each with its loops; `offload` is declared as the
// bundled header does (kernel first), kernels' descriptors are built from
// their parameter types here.
//
//===----------------------------------------------------------------------===//

#include "offload/Core/LoopResidency.h"
#include "TypeDescriptors.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <string>

using namespace clang;
using namespace offload;

namespace {

constexpr const char *Source = R"cpp(
#include <span>
#include <vector>
#include <cstdio>
#include <type_traits>

template <class... P>
void offload(void (*)(P...), const std::type_identity_t<P> &...);

void step(std::span<const float> in, std::span<float> out) {}
void scale(std::span<float> v, float f) {}
void flag(std::span<const float> v, bool &changed) {}

float g[8];
std::vector<float> gv(8);
float *saved;
void touch_global() { gv[0] = 1; }
int pure(int x) { return x * 2; }
void keep(float *p) { saved = p; }

void jacobi(int steps) {
  std::vector<float> a(8), b(8);
  for (int t = 0; t < steps; ++t) { // @jacobi
    offload(step, a, b);
    offload(step, b, a);
  }
}

void host_read(int steps) {
  std::vector<float> a(8), b(8);
  float s = 0;
  for (int t = 0; t < steps; ++t) {
    offload(step, a, b);
    s += b[0]; // @host_read
  }
}

void bfs(int n) {
  std::vector<float> v(8);
  bool changed = true;
  while (changed) {
    changed = false; // @bfs_changed
    offload(flag, v, changed);
    offload(scale, v, 2.0f);
  }
}

void address_taken(int steps) {
  std::vector<float> a(8), b(8);
  keep(a.data()); // @escape
  for (int t = 0; t < steps; ++t) {
    offload(step, a, b);
    touch_global(); // @escape_call
  }
}

void escaped_no_call(int steps) {
  std::vector<float> a(8), b(8);
  float *p = a.data();
  for (int t = 0; t < steps; ++t)
    offload(step, a, b);
  (void)p;
}

void global_call(int steps) {
  std::vector<float> b(8);
  for (int t = 0; t < steps; ++t) {
    offload(step, gv, b);
    touch_global(); // @global_call
  }
}

void global_pure_call(int steps) {
  std::vector<float> b(8);
  for (int t = 0; t < steps; ++t) {
    offload(step, gv, b);
    pure(t);
    std::printf("%d\n", t);
  }
}

void call_with_var(int steps) {
  std::vector<float> a(8), b(8);
  for (int t = 0; t < steps; ++t) {
    offload(step, a, b);
    keep(b.data()); // @call_with_var
  }
}

void spans(std::span<float> x, std::span<float> y, int steps) {
  for (int t = 0; t < steps; ++t)
    offload(step, x, y);
}

void one_span(std::span<float> x, int steps) {
  for (int t = 0; t < steps; ++t)
    offload(scale, x, 1.0f);
}

void nested(int steps) {
  std::vector<float> a(8), b(8);
  for (int i = 0; i < steps; ++i) { // @outer
    for (int j = 0; j < steps; ++j) // @inner
      offload(step, a, b);
    offload(scale, a, 0.5f);
  }
}

void nested_inner_only(int steps) {
  std::vector<float> a(8), b(8);
  for (int i = 0; i < steps; ++i) {
    for (int j = 0; j < steps; ++j) // @inner_only
      offload(step, a, b);
    std::printf("%f\n", double(b[0]));
  }
}

void declared_inside(int steps) {
  for (int t = 0; t < steps; ++t) {
    std::vector<float> tmp(8);
    offload(scale, tmp, 1.0f);
  }
}

void lambda_use(int steps) {
  std::vector<float> a(8);
  for (int t = 0; t < steps; ++t) {
    offload(scale, a, 1.0f);
    auto f = [&] { return a[0]; }; // @lambda
    f();
  }
}

void with_label(int steps) {
  std::vector<float> a(8);
  for (int t = 0; t < steps; ++t) {
  again:
    offload(scale, a, 1.0f);
  }
}

void source_read(std::vector<float> &ey, std::vector<float> &hz,
                 const std::vector<float> &fict, const float &k, int steps) {
  for (int t = 0; t < steps; ++t) {
    offload(scale, ey, fict[t] + float(fict.size()));
    offload(step, ey, hz);
    float x = k;
    (void)x;
  }
}

void source_grows(std::vector<float> &ey, std::vector<float> &fict,
                  int steps) {
  for (int t = 0; t < steps; ++t) {
    offload(scale, ey, 1.0f);
    fict.push_back(1.0f); // @grows
  }
}

struct graph {
  std::vector<float> offsets, edges;
};
union either {
  float x[4];
  int y[4];
};

void fields(const graph &g, std::vector<float> &cost, int steps) {
  for (int t = 0; t < steps; ++t)
    offload(step, g.offsets, cost);
}

void field_and_host(graph &g, int steps) {
  for (int t = 0; t < steps; ++t) {
    offload(step, g.offsets, g.edges);
    g.offsets[0] = 1; // @field_host
  }
}

struct counter {
  counter(int n) : n(n) {}
  int n;
};
struct noisy {
  noisy(int n) { gv[0] = float(n); }
};

void harmless_ctor(std::vector<float> &a, int steps) {
  for (int t = 0; t < steps; ++t) {
    counter c(t);
    offload(scale, a, float(c.n));
  }
}

void touching_ctor(std::vector<float> &a, int steps) {
  for (int t = 0; t < steps; ++t) {
    noisy c(t); // @noisy
    offload(scale, a, 1.0f);
  }
}
)cpp";

ASTUnit &ast() {
  static std::unique_ptr<ASTUnit> AST = [] {
    auto Unit = tooling::buildASTFromCodeWithArgs(
        Source, {"-std=c++20", "-resource-dir", OFFLOAD_CLANG_RESOURCE_DIR},
        "loops.cpp");
    if (!Unit || Unit->getDiagnostics().hasErrorOccurred())
      FAIL("the loop source did not compile");
    return Unit;
  }();
  return *AST;
}

const KernelDescriptor &descriptor(const FunctionDecl &K) {
  return test::descriptorOf(K);
}

std::optional<LoopLaunchInfo> launchOf(const CallExpr &CE) {
  const FunctionDecl *F = CE.getDirectCallee();
  if (!F || F->getName() != "offload" || CE.getNumArgs() < 1)
    return std::nullopt;
  const auto *DRE = dyn_cast<DeclRefExpr>(CE.getArg(0)->IgnoreParenImpCasts());
  const auto *K = DRE ? dyn_cast<FunctionDecl>(DRE->getDecl()) : nullptr;
  if (!K)
    return std::nullopt;
  return LoopLaunchInfo{&descriptor(*K), 1};
}

std::vector<ResidentLoop> loopsOf(llvm::StringRef Function) {
  ASTContext &Ctx = ast().getASTContext();
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *FD = dyn_cast<FunctionDecl>(D);
        FD && FD->getName() == Function && FD->hasBody()) {
      unsigned Id = 1;
      return findResidentLoops(*FD->getBody(), Ctx, launchOf, Id);
    }
  FAIL("no function " << Function.str());
  return {};
}

/// The line of the `// @name` marker.
unsigned line(llvm::StringRef Marker) {
  llvm::StringRef S(Source);
  size_t At = S.find(("// @" + Marker + "\n").str());
  REQUIRE(At != llvm::StringRef::npos);
  return S.take_front(At).count('\n') + 1;
}

unsigned lineOf(SourceLocation L) {
  return ast().getSourceManager().getPresumedLineNumber(L);
}

const LoopVariable *find(const ResidentLoop &R, llvm::StringRef Name) {
  for (const LoopVariable &V : R.Vars)
    if (V.name() == Name)
      return &V;
  return nullptr;
}

} // namespace

TEST_CASE("a loop of launches holds what only its kernels use", "[loops]") {
  auto Loops = loopsOf("jacobi");
  REQUIRE(Loops.size() == 1);
  CHECK(lineOf(Loops[0].Loop->getBeginLoc()) == line("jacobi"));
  const LoopVariable *A = find(Loops[0], "a"), *B = find(Loops[0], "b");
  REQUIRE(A);
  REQUIRE(B);
  CHECK(A->Held);
  CHECK(B->Held);
  // Each is read by one launch and written by the other.
  CHECK(A->Map == MapKind::ToFrom);
  CHECK(B->Map == MapKind::ToFrom);
  CHECK(Loops[0].Id != 0);
  CHECK(Loops[0].Launches.size() == 2);
}

TEST_CASE("a host use in the loop keeps the copies", "[loops]") {
  auto Loops = loopsOf("host_read");
  REQUIRE(Loops.size() == 1);
  const LoopVariable *B = find(Loops[0], "b");
  REQUIRE(B);
  CHECK_FALSE(B->Held);
  CHECK(B->Why == ResidencyBlock::HostUse);
  CHECK(lineOf(B->Use) == line("host_read"));
  CHECK(describeBlock(*B) == "the host uses 'b' here");
  // `a` is only read by the kernel: held, copied in once.
  const LoopVariable *A = find(Loops[0], "a");
  REQUIRE(A);
  CHECK(A->Held);
  CHECK(A->Map == MapKind::To);
}

TEST_CASE("a BFS level loop holds the graph, not the flag", "[loops]") {
  auto Loops = loopsOf("bfs");
  REQUIRE(Loops.size() == 1);
  const LoopVariable *V = find(Loops[0], "v"), *C = find(Loops[0], "changed");
  REQUIRE(V);
  REQUIRE(C);
  CHECK(V->Held);
  CHECK_FALSE(C->Held);
  // The condition reads it first; the assignment is the first in the body.
  CHECK(C->Why == ResidencyBlock::HostUse);
}

TEST_CASE("an address that escaped before the loop, and a call in it",
          "[loops]") {
  auto Loops = loopsOf("address_taken");
  REQUIRE(Loops.size() == 1);
  const LoopVariable *A = find(Loops[0], "a");
  REQUIRE(A);
  CHECK_FALSE(A->Held);
  CHECK(A->Why == ResidencyBlock::Escaped);
  CHECK(lineOf(A->Use) == line("escape"));
  CHECK(lineOf(A->Use2) == line("escape_call"));
  // `b` never escaped: a call cannot reach it.
  const LoopVariable *B = find(Loops[0], "b");
  REQUIRE(B);
  CHECK(B->Held);

  // Nothing in the loop could use an escaped pointer.
  auto Quiet = loopsOf("escaped_no_call");
  REQUIRE(Quiet.size() == 1);
  REQUIRE(find(Quiet[0], "a"));
  CHECK(find(Quiet[0], "a")->Held);
}

TEST_CASE("a global and a call whose body touches it", "[loops]") {
  auto Loops = loopsOf("global_call");
  REQUIRE(Loops.size() == 1);
  const LoopVariable *G = find(Loops[0], "gv");
  REQUIRE(G);
  CHECK_FALSE(G->Held);
  CHECK(G->Why == ResidencyBlock::Call);
  CHECK(lineOf(G->Use) == line("global_call"));

  // A body that names no global, and printf of a number, cannot.
  auto Pure = loopsOf("global_pure_call");
  REQUIRE(Pure.size() == 1);
  REQUIRE(find(Pure[0], "gv"));
  CHECK(find(Pure[0], "gv")->Held);
}

TEST_CASE("a call given the variable", "[loops]") {
  auto Loops = loopsOf("call_with_var");
  REQUIRE(Loops.size() == 1);
  const LoopVariable *B = find(Loops[0], "b");
  REQUIRE(B);
  CHECK_FALSE(B->Held);
  CHECK(lineOf(B->Use) == line("call_with_var"));
}

TEST_CASE("spans that may overlap are not held", "[loops]") {
  auto Loops = loopsOf("spans");
  REQUIRE(Loops.size() == 1);
  for (const LoopVariable &V : Loops[0].Vars) {
    CHECK_FALSE(V.Held);
    CHECK(V.Why == ResidencyBlock::MayAlias);
  }
  auto One = loopsOf("one_span");
  REQUIRE(One.size() == 1);
  REQUIRE(find(One[0], "x"));
  CHECK(find(One[0], "x")->Held);
}

TEST_CASE("nested loops: the outermost that qualifies", "[loops]") {
  auto Loops = loopsOf("nested");
  REQUIRE(Loops.size() == 1);
  CHECK(lineOf(Loops[0].Loop->getBeginLoc()) == line("outer"));
  CHECK(Loops[0].Launches.size() == 2);
  REQUIRE(find(Loops[0], "a"));
  CHECK(find(Loops[0], "a")->Held);
  CHECK(find(Loops[0], "b")->Held);

  // The outer loop reads b: it holds a, the inner one holds b, and b is
  // reported nowhere (the inner loop's launches no longer copy it).
  auto Inner = loopsOf("nested_inner_only");
  REQUIRE(Inner.size() == 2);
  REQUIRE(find(Inner[0], "a"));
  CHECK(find(Inner[0], "a")->Held);
  CHECK_FALSE(find(Inner[0], "b"));
  CHECK(lineOf(Inner[1].Loop->getBeginLoc()) == line("inner_only"));
  REQUIRE(find(Inner[1], "b"));
  CHECK(find(Inner[1], "b")->Held);
  CHECK_FALSE(find(Inner[1], "a"));
}

TEST_CASE("what is not held", "[loops]") {
  // A variable of the loop body lives one trip.
  CHECK(loopsOf("declared_inside").empty());

  auto Lambda = loopsOf("lambda_use");
  REQUIRE(Lambda.size() == 1);
  CHECK_FALSE(find(Lambda[0], "a")->Held);
  CHECK(lineOf(find(Lambda[0], "a")->Use) == line("lambda"));

  auto Label = loopsOf("with_label");
  REQUIRE(Label.size() == 1);
  CHECK_FALSE(find(Label[0], "a")->Held);
  CHECK(find(Label[0], "a")->Why == ResidencyBlock::Unsupported);
}

TEST_CASE("a launch's held parameters", "[loops]") {
  auto Loops = loopsOf("host_read");
  REQUIRE(Loops.size() == 1);
  const CallExpr *CE = Loops[0].Launches[0];
  auto Holds = holdsOf(Loops, *CE, *launchOf(*CE));
  REQUIRE(Holds.size() == 1);
  CHECK(Holds[0].Param == 0);
  CHECK(Holds[0].LoopId == Loops[0].Id);
  CHECK(Holds[0].Map == MapKind::To);
}

TEST_CASE("a launch's loop holds travel in its call-site descriptor",
          "[loops]") {
  CallSiteDescriptor C;
  C.File = "f.cpp";
  C.Line = 12;
  C.LoopHolds = {{0, 0, MapKind::To}, {2, 1, MapKind::ToFrom}};
  llvm::Expected<CallSiteDescriptor> D = decodeCallSite(encodeCallSite(C));
  REQUIRE(bool(D));
  REQUIRE(D->LoopHolds.size() == 2);
  CHECK(D->LoopHolds[1].Param == 2);
  CHECK(D->LoopHolds[1].Depth == 1);
  CHECK(D->LoopHolds[1].Map == MapKind::ToFrom);
  CHECK(D->LoopHolds[0].Map == MapKind::To);
  // A launch no loop holds says nothing of it.
  C.LoopHolds.clear();
  CHECK(encodeCallSite(C).find("loop=") == std::string::npos);
}

TEST_CASE("a container the host reads in the loop is watched, not blocking",
          "[loops]") {
  auto Loops = loopsOf("source_read");
  REQUIRE(Loops.size() == 1);
  // fict may be ey or hz: the loop holds them, and the runtime holds none
  // that overlaps what fict (and k) reach at the loop's entry.
  REQUIRE(find(Loops[0], "ey"));
  CHECK(find(Loops[0], "ey")->Held);
  CHECK(find(Loops[0], "hz")->Held);
  std::vector<std::string> Watched;
  for (const LoopPath &P : Loops[0].Watch)
    Watched.push_back(P.name());
  CHECK(Watched == std::vector<std::string>{"fict", "k"});

  // A call that may move a container's elements is a call like any other.
  auto Grows = loopsOf("source_grows");
  REQUIRE(Grows.size() == 1);
  const LoopVariable *E = find(Grows[0], "ey");
  REQUIRE(E);
  CHECK_FALSE(E->Held);
  CHECK(E->Why == ResidencyBlock::Call);
  CHECK(lineOf(E->Use) == line("grows"));

  // Nothing exposed is held: nothing to watch.
  auto Local = loopsOf("host_read");
  REQUIRE(Local.size() == 1);
  CHECK(Local[0].Watch.empty());
}

TEST_CASE("fields of a variable are held as variables", "[loops]") {
  auto Loops = loopsOf("fields");
  REQUIRE(Loops.size() == 1);
  REQUIRE(Loops[0].Vars.size() == 2);
  const LoopVariable &O = Loops[0].Vars[0];
  CHECK(O.name() == "g.offsets");
  CHECK(O.Held);
  CHECK(O.Map == MapKind::To);
  CHECK(find(Loops[0], "cost")->Held);
  const CallExpr *CE = Loops[0].Launches[0];
  auto Holds = holdsOf(Loops, *CE, *launchOf(*CE));
  CHECK(Holds.size() == 2);

  // The host names the variable: none of its fields is held.
  auto Host = loopsOf("field_and_host");
  REQUIRE(Host.size() == 1);
  for (const LoopVariable &V : Host[0].Vars) {
    CHECK_FALSE(V.Held);
    CHECK(V.Why == ResidencyBlock::HostUse);
    CHECK(lineOf(V.Use) == line("field_host"));
  }
}

TEST_CASE("a constructor's body is read like a call's", "[loops]") {
  auto Harmless = loopsOf("harmless_ctor");
  REQUIRE(Harmless.size() == 1);
  CHECK(find(Harmless[0], "a")->Held);

  auto Touching = loopsOf("touching_ctor");
  REQUIRE(Touching.size() == 1);
  const LoopVariable *A = find(Touching[0], "a");
  REQUIRE(A);
  CHECK_FALSE(A->Held);
  CHECK(A->Why == ResidencyBlock::Call);
  CHECK(lineOf(A->Use) == line("noisy"));
}
