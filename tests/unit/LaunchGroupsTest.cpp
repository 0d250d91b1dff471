//===- LaunchGroupsTest.cpp - unit tests of the launch group rules --------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// A group that joins a launch wrongly runs it on data the host no longer
// sees (a device the group does not hold it on, a grid read from a stale
// host copy), so each form of launch configuration below that must stay out
// of a group is checked to do so, and each that may join is checked to
// join. `offload` is declared as the bundled header does (the same marker
// symbols, so the analysis tells the forms apart as in the plugin), with
// the real ofld::launch; kernels' descriptors are built from their
// parameter types here.
//
//===----------------------------------------------------------------------===//

#include "offload/Core/LaunchGroups.h"
#include "TypeDescriptors.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <vector>

using namespace clang;
using namespace offload;

namespace {

constexpr const char *Source = R"cpp(
#include <offload/launch.hpp>
#include <span>
#include <type_traits>
#include <vector>

template <class... P>
void offload(void (*)(P...), const std::type_identity_t<P> &...,
             const char * = nullptr) __asm__("__ofld_launch");
template <class... P>
void offload(const ofld::launch &, void (*)(P...),
             const std::type_identity_t<P> &...,
             const char * = nullptr) __asm__("__ofld_launch_shaped");

[[clang::annotate("offload.kernel")]] void scale(std::span<float> v, float a) {}
[[clang::annotate("offload.kernel")]] void count(std::span<const float> v,
                                                 int &n) {}

void written_out(std::vector<float> &v, int n) {
  offload(ofld::launch{.grid = {(n + 255) / 256}, .block = {256}}, scale, v,
          2.0f);
  offload(ofld::launch{.grid = {n / 64, 2}, .shared_bytes = sizeof(float)},
          scale, v, 1.0f);
}

void shape_variable(std::vector<float> &v, ofld::dim3 g) {
  const ofld::launch shape = {.grid = g, .block = {128}};
  offload(shape, scale, v, 2.0f);
  offload(scale, v, 1.0f);
  offload(shape, scale, v, 3.0f);
}

void devices(std::vector<float> &v, int d) {
  offload(ofld::launch{.device = 0}, scale, v, 2.0f);
  offload(ofld::launch{.device = d}, scale, v, 1.0f);
}

void same_device(std::vector<float> &v) {
  offload(ofld::launch{.device = 0}, scale, v, 2.0f);
  offload(ofld::launch{.device = 0}, scale, v, 1.0f);
}

void device_between(std::vector<float> &v) {
  offload(scale, v, 2.0f);
  offload(ofld::launch{.device = 0}, scale, v, 1.0f);
  offload(scale, v, 2.0f);
}

void queues(std::vector<float> &v, ofld::queue q) {
  offload(ofld::launch{.queue = q}, scale, v, 2.0f);
  offload(ofld::launch{.queue = q}, scale, v, 1.0f);
}

void not_waiting(std::vector<float> &v) {
  offload(ofld::launch{.nowait = true}, scale, v, 2.0f);
  offload(ofld::launch{.nowait = true}, scale, v, 1.0f);
}

void mutable_shape(std::vector<float> &v) {
  ofld::launch shape = {.grid = {4}};
  offload(shape, scale, v, 2.0f);
  offload(shape, scale, v, 1.0f);
}

void const_on_device(std::vector<float> &v) {
  const ofld::launch shape = {.grid = {4}, .device = 1};
  offload(shape, scale, v, 2.0f);
  offload(shape, scale, v, 1.0f);
}

void reads_held(std::vector<float> &v) {
  int n = 0;
  offload(count, v, n);
  offload(ofld::launch{.grid = {n}}, count, v, n);
}

void calls_in_grid(std::vector<float> &v) {
  offload(ofld::launch{.grid = {v.size() / 256}}, scale, v, 2.0f);
  offload(ofld::launch{.grid = {v.size() / 256}}, scale, v, 1.0f);
}
)cpp";

ASTUnit &ast() {
  static std::unique_ptr<ASTUnit> AST = [] {
    auto Unit = tooling::buildASTFromCodeWithArgs(
        Source,
        {"-std=c++20", "-resource-dir", OFFLOAD_CLANG_RESOURCE_DIR, "-I",
         OFFLOAD_SHIM_INCLUDE_DIR},
        "groups.cpp");
    if (!Unit || Unit->getDiagnostics().hasErrorOccurred())
      FAIL("the launch group source did not compile");
    return Unit;
  }();
  return *AST;
}

const KernelDescriptor &descriptor(const FunctionDecl &K) {
  return test::descriptorOf(K);
}

/// The kernel an offload() call launches (after its configuration, if any).
const KernelDescriptor *kernelOf(const CallExpr &CE) {
  for (const Expr *Arg : CE.arguments())
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts()))
      if (const auto *K = dyn_cast<FunctionDecl>(DRE->getDecl()))
        return &descriptor(*K);
  return nullptr;
}

/// Per offload() statement of `Function`, in order: its group (Id 0: none).
std::vector<LaunchGroup> groupsOf(llvm::StringRef Function) {
  ASTContext &Ctx = ast().getASTContext();
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD || FD->getName() != Function || !FD->hasBody())
      continue;
    const auto &Body = *cast<CompoundStmt>(FD->getBody());
    unsigned Id = 1;
    llvm::DenseMap<const CallExpr *, LaunchGroup> Groups;
    findLaunchGroups(Body, kernelOf, Id, Groups);
    std::vector<LaunchGroup> Out;
    for (const Stmt *S : Body.body()) {
      const auto *E = dyn_cast<Expr>(S);
      if (!E)
        continue;
      if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
        E = EWC->getSubExpr();
      if (const auto *CE = dyn_cast<CallExpr>(E)) {
        auto It = Groups.find(CE);
        Out.push_back(It == Groups.end() ? LaunchGroup() : It->second);
      }
    }
    return Out;
  }
  FAIL("no function " << Function.str());
  return {};
}

/// Whether the launches form one group, the first opening and the last
/// closing it, that holds the first kernel argument both ways.
bool oneGroup(const std::vector<LaunchGroup> &G) {
  if (G.size() < 2 || !G.front().Id || !G.front().Opens || !G.back().Closes)
    return false;
  for (const LaunchGroup &L : G)
    if (L.Id != G.front().Id || L.NumHeld != 1)
      return false;
  return !G.front().Held.empty() && G.front().Held[0] == MapKind::ToFrom;
}

bool noGroup(const std::vector<LaunchGroup> &G) {
  for (const LaunchGroup &L : G)
    if (L.Id)
      return false;
  return !G.empty();
}

} // namespace

TEST_CASE("launches with a configuration that keeps the default device join",
          "[groups]") {
  CHECK(oneGroup(groupsOf("written_out")));
  // A const shape variable, with a launch without one between.
  auto G = groupsOf("shape_variable");
  CHECK(G.size() == 3);
  CHECK(oneGroup(G));
}

TEST_CASE("a configuration that names a device, a queue or nowait joins none",
          "[groups]") {
  CHECK(noGroup(groupsOf("devices")));
  // Not proven the same device, even when spelled the same.
  CHECK(noGroup(groupsOf("same_device")));
  // The launch on a named device splits the launches around it.
  CHECK(noGroup(groupsOf("device_between")));
  CHECK(noGroup(groupsOf("queues")));
  CHECK(noGroup(groupsOf("not_waiting")));
  // A shape variable that the code may change, or whose initialiser names a
  // device.
  CHECK(noGroup(groupsOf("mutable_shape")));
  CHECK(noGroup(groupsOf("const_on_device")));
}

TEST_CASE("a configuration that reads held data ends the group", "[groups]") {
  // `n` would be held by the group: its host copy is stale for the grid.
  CHECK(noGroup(groupsOf("reads_held")));
  // A call in the grid could read anything.
  CHECK(noGroup(groupsOf("calls_in_grid")));
}
