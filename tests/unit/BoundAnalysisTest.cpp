//===- BoundAnalysisTest.cpp - unit tests of the bounds-check reader ------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// A launch without a grid runs one thread per index the kernel's bounds
// check admits, so the bound analysis decides how much work runs: a bound
// too small silently skips indices, one it cannot read must make the launch
// give its grid. Each kernel below is one form people write, parsed by clang
// with offload/device.hpp and libstdc++ as the plugin sees it; the checks
// compare the descriptor's encoding (LaunchBound.cpp), the --explain words
// and the C++ that offload-rewrite emits for the call site.
//
//===----------------------------------------------------------------------===//

#include "offload/Core/BoundAnalysis.h"
#include "Printers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace clang;
using namespace offload;

namespace {

// One translation unit for every kernel: parsing <span> and the offload
// headers is the slow part. Plain functions: the analysis takes any
// definition, the attribute only decides which ones the plugin asks about.
// A `// @name` comment marks the line the test expects a diagnostic at.
constexpr const char *KernelSource = R"cpp(
#include "offload/device.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <iterator>
#include <span>

using std::size_t;
using ofld::global_id;

struct Params { float scale; long n; };
struct Inner { int x, y; };
struct Config { double s; Inner d; };

//===-- Bounded ------------------------------------------------------------===//

void k_size(std::span<float> v) {
  size_t i = global_id();
  if (i < v.size())
    v[i] = 0;
}
void k_exit(std::span<float> y, int n) {
  auto i = global_id();
  if (i >= n)
    return;
  y[i] = 1;
}
void k_min(std::span<const float> x, std::span<float> y, int n) {
  auto i = global_id();
  if (i < n && i < y.size())
    y[i] = x[i];
}
void k_max(std::span<float> a, std::span<float> b, int n, int m) {
  auto i = global_id();
  if (i < n)
    a[i] = 0;
  if (i < m)
    b[i] = 1;
}
void k_le(std::span<float> y, long n) {
  auto i = global_id();
  if (i <= n)
    y[i] = 0;
}
void k_first(std::span<float> y) {
  auto i = global_id();
  if (i == 0)
    y[i] = 1;
}
void k_stride(std::span<float> y, size_t n) {
  for (size_t i = global_id(); i < n; i += ofld::grid_dim() * ofld::block_dim())
    y[i] = 2;
}
void k_while(std::span<float> y, int n) {
  size_t i = global_id();
  while (i < n) {
    y[i] += 1;
    i += ofld::block_dim() * ofld::grid_dim();
  }
}
void k_2d(std::span<float> m, int rows, int cols) {
  size_t c = global_id(0), r = global_id(1);
  if (r < rows && c < cols)
    m[r * cols + c] = 0;
}
void k_3d(std::span<float> v, int depth) {
  size_t z = global_id(2);
  if (z < depth)
    v[z] = 0;
}
void k_cuda(std::span<float> y, int n) {
  int i = ofld::block_id() * ofld::block_dim() + ofld::thread_id();
  if (i < n)
    y[i] = 0;
}
void k_cuda_swapped(std::span<float> y, int n) {
  unsigned i = ofld::thread_id(1) + ofld::block_dim(1) * ofld::block_id(1);
  if (i < n)
    y[i] = 0;
}
void k_field(std::span<float> y, Params p) {
  auto i = global_id();
  if (i < p.n)
    y[i] *= p.scale;
}
void k_nested_field(std::span<float> y, const Config &c) {
  auto i = global_id();
  if (i < c.d.y)
    y[i] = c.s;
}
void k_const_local(std::span<float> y, int rows, int cols) {
  const int total = rows * cols;
  auto i = global_id();
  if (i < total)
    y[i] = 0;
}
void k_std_min(std::span<float> y, int n, int m) {
  auto i = global_id();
  if (i < std::min(n, m))
    y[i] = 0;
}
void k_std_max(std::span<float> y, int n, int m) {
  auto i = global_id();
  if (i < std::max(n, m))
    y[i] = 0;
}
void k_std_array(std::array<int, 8> &a) {
  auto i = global_id();
  if (i < a.size())
    a[i] = 0;
}
void k_c_array(float (&a)[16]) {
  auto i = global_id();
  if (i < std::size(a))
    a[i] = 0;
}
void k_static_span(std::span<float, 4> s) {
  auto i = global_id();
  if (i < s.size())
    s[i] = 0;
}
void k_std_size(std::span<float> v) {
  auto i = global_id();
  if (i < std::size(v))
    v[i] = 0;
}
void k_size_minus(std::span<const float> x, std::span<float> d) {
  auto i = global_id();
  if (i < x.size() - 1)
    d[i] = x[i + 1] - x[i];
}
void k_mul(std::span<float> y, int n, int m) {
  auto i = global_id();
  if (i < n * m)
    y[i] = 0;
}
void k_div(std::span<float> y, int n) {
  auto i = global_id();
  if (i < n / 4)
    y[i] = 0;
}
void k_min_literal(std::span<float> y, int n) {
  auto i = global_id();
  if (i < std::min(n, 64))
    y[i] = 0;
}
void k_short(std::span<float> y, unsigned short n) {
  auto i = global_id();
  if (i < n)
    y[i] = 0;
}
void k_sizeof(std::span<float> y) {
  auto i = global_id();
  if (i < sizeof(float) * 4)
    y[i] = 0;
}
void k_signed_minus(std::span<float> y, long n) {
  long i = global_id();
  if (i < n - 10)
    y[i] = 0;
}
void k_comma(std::span<float> y, int n) {
  auto i = global_id();
  if (i < n)
    y[i] = 0, y[0] = 1;
}
void k_constexpr(std::span<float> y) {
  constexpr int N = 64;
  auto i = global_id();
  if (i < N)
    y[i] = 0;
}
void k_not(std::span<float> y, int n) {
  auto i = global_id();
  if (!(i < n))
    return;
  y[i] = 0;
}
void k_reversed(std::span<float> y, int n) {
  auto i = global_id();
  if (n > i)
    y[i] = 0;
}
void k_reversed_exit(std::span<float> y, int n) {
  auto i = global_id();
  if (n <= i)
    return;
  y[i] = 0;
}
void k_gt_exit(std::span<float> y, int n) {
  auto i = global_id();
  if (i > n) {
    return;
  }
  y[i] = 0;
}
void k_or_exit(std::span<float> y, int n, int m) {
  auto i = global_id();
  if (i >= n || i >= m)
    return;
  y[i] = 0;
}
void k_ne_exit(std::span<float> y, int n) {
  auto i = global_id();
  if (i != n)
    return;
  y[i] = 0;
}
void k_else_exit(std::span<float> y, int n) {
  auto i = global_id();
  if (i < n) {
  } else {
    return;
  }
  y[i] = 0;
}
void k_if_init(std::span<float> y, int n) {
  if (auto i = global_id(); i < n)
    y[i] = 0;
}
void k_nested_guard(std::span<float> y, int n, int m) {
  auto i = global_id();
  if (i < n) {
    if (i < m)
      y[i] = 0;
  }
}
void k_outer_read(std::span<float> a, std::span<float> b, int n, int m) {
  auto i = global_id();
  if (i < n) {
    a[i] = 0;
    if (i < m)
      b[i] = 0;
  }
}
void k_condition_read(std::span<const float> x, std::span<float> y, int n) {
  auto i = global_id();
  if (i < n && x[i] > 0)
    y[i] = 1;
}
void k_call_bound(std::span<float> y) {
  if (global_id() < y.size())
    y[global_id()] = 0;
}
void k_derived(std::span<float> y, int n, int cols) {
  auto i = global_id();
  auto r = i / cols;
  if (i < n)
    y[r] = 0;
}
void k_loop_exit(std::span<float> y, int n) {
  auto i = global_id();
  for (int k = 0; k < 4; ++k) {
    if (i >= n)
      break;
    y[i] += k;
  }
}
void store(std::span<float> y, size_t i) { y[i] = 0; }
void k_helper_inside(std::span<float> y) {
  auto i = global_id();
  if (i < y.size())
    store(y, i);
}
void touch(std::span<float> y) { y[global_id()] = 1; }
void k_helper_reads_inside(std::span<float> y) {
  if (global_id() < y.size())
    touch(y);
}
void k_redecl(std::span<float> y, int n);
void k_redecl(std::span<float> y, int n) {
  auto i = global_id();
  if (i < n)
    y[i] = 0;
}
template <class T> void k_tmpl(std::span<T> y, T v) {
  auto i = global_id();
  if (i < y.size())
    y[i] = v;
}
template void k_tmpl<double>(std::span<double>, double);

//===-- Unindexed -----------------------------------------------------------===//

void k_none(int &out) { out = 42; }
void k_sizes_only(std::span<unsigned> y) {
  y[0] = ofld::grid_dim() * ofld::block_dim();
}
void k_loop_all(std::span<float> y) {
  for (float &v : y)
    v = 0;
}

//===-- Unknown -------------------------------------------------------------===//

void k_unguarded(std::span<float> y) {
  y[global_id()] = 0; // @unguarded
}
void k_read_before(std::span<const float> x, std::span<float> y, int n) {
  auto i = global_id();
  float t = x[i]; // @read_before
  if (i < n)
    y[i] = t;
}
void k_memory_bound(std::span<const int> x, std::span<float> y) {
  auto i = global_id();
  if (i < x[0])
    y[i] = 0;
}
void k_helper_outside(std::span<float> y) {
  auto i = global_id();
  store(y, i);
}
void k_helper_reads(std::span<float> y) {
  touch(y); // @helper_reads
}
void k_derived_outside(std::span<float> y, int n, int cols) {
  auto i = global_id();
  auto r = i / cols;
  y[r] = 0;
  if (i < n)
    y[i] = 1;
}
void k_or_guard(std::span<float> y, int n, int m) {
  auto i = global_id();
  if (i < n || i < m)
    y[i] = 0;
}
void k_else(std::span<float> y, int n) {
  auto i = global_id();
  if (i < n)
    y[i] = 0;
  else
    y[0] = i;
}
void k_ne_guard(std::span<float> y, int n) {
  auto i = global_id();
  if (i != n)
    y[i] = 0;
}
void k_exit_with_work(std::span<float> y, int n) {
  auto i = global_id();
  if (i >= n) {
    y[0] = 1;
    return;
  }
  y[i] = 0;
}
void k_assigned_index(std::span<float> y, int n) {
  size_t i = global_id();
  i = 3;
  if (i < n)
    y[i] = 0;
}
void k_assigned_bound(std::span<float> y, int n) {
  int m = n;
  m = 2 * n;
  auto i = global_id();
  if (i < m)
    y[i] = 0;
}
void k_float_bound(std::span<float> y, float f) {
  auto i = global_id();
  if (i < f)
    y[i] = 0;
}
void k_thread_only(std::span<float> y, int n) {
  if (ofld::thread_id() < n)
    y[ofld::thread_id()] = 0;
}
void k_cuda_mixed(std::span<float> y, int n) {
  size_t i = ofld::block_id(0) * ofld::block_dim(1) + ofld::thread_id(0);
  if (i < n)
    y[i] = 0;
}
void k_dynamic_dim(std::span<float> y, int d, int n) {
  size_t i = global_id(d);
  if (i < n)
    y[i] = 0;
}
void k_derived_guard(std::span<float> y, int n, int off) {
  auto j = global_id() + off;
  if (j < n)
    y[j] = 0;
}
void k_do_while(std::span<float> y, int n) {
  auto i = global_id();
  do {
    y[i] = 0;
  } while (i < n);
}
void k_ternary(std::span<float> y, int n) {
  auto i = global_id();
  y[0] = i < n ? y[i] : 0;
}
void k_unguarded_y(std::span<float> m, int cols) {
  size_t c = global_id(0), r = global_id(1);
  if (c < cols)
    m[r * cols + c] = 0; // @unguarded_y
}
void k_grows(std::span<float> y, int n) {
  auto i = global_id();
  i += 16;
  if (i < n)
    y[i] = 0;
}
void k_lambda_writes(std::span<float> y, int n) {
  int m = n;
  auto set = [&] { m = 1000; };
  set();
  auto i = global_id();
  if (i < m)
    y[i] = 0;
}
void k_pointer_writes(std::span<float> y, int n) {
  int m = n;
  int *q = &m;
  *q = 5;
  auto i = global_id();
  if (i < m)
    y[i] = 0;
}
void k_index_ref(std::span<float> y, int n) {
  auto i = global_id();
  auto &j = i;
  if (i < n)
    y[j] = 0;
}
void k_local_struct(std::span<float> y, Params p) {
  Params q = p;
  auto i = global_id();
  if (i < q.n)
    y[i] = 0;
}
void k_shift(std::span<float> y, int n) {
  auto i = global_id();
  if (i < (n << 1))
    y[i] = 0;
}
void k_exit_in_block(std::span<float> y, int n) {
  auto i = global_id();
  {
    if (i >= n)
      return;
  }
  y[i] = 0;
}

void k_declared_only(std::span<float> y);

int main() { return 0; }
)cpp";

ASTUnit &sharedAST() {
  static std::unique_ptr<ASTUnit> AST = [] {
    auto Unit = tooling::buildASTFromCodeWithArgs(
        KernelSource,
        {"-std=c++20", "-resource-dir", OFFLOAD_CLANG_RESOURCE_DIR, "-I",
         OFFLOAD_SHIM_INCLUDE_DIR},
        "kernels.cpp");
    // A parse error would silently drop kernels; stop every test instead.
    if (!Unit || Unit->getDiagnostics().hasErrorOccurred())
      FAIL("the kernel source did not compile");
    return Unit;
  }();
  return *AST;
}

ASTContext &ctx() { return sharedAST().getASTContext(); }

/// The kernel `Name` at file scope; a function template yields its first
/// specialisation (what the plugin analyses), not the pattern.
const FunctionDecl &kernel(llvm::StringRef Name) {
  ASTContext &Ctx = ctx();
  auto Found = Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get(Name));
  if (Found.empty())
    FAIL("no function named " << Name.str() << " in the kernel source");
  NamedDecl *ND = Found.front();
  if (auto *FTD = dyn_cast<FunctionTemplateDecl>(ND)) {
    if (FTD->specializations().empty())
      FAIL(Name.str() << " has no specialisation");
    return **FTD->specializations().begin();
  }
  auto *FD = dyn_cast<FunctionDecl>(ND);
  if (!FD)
    FAIL(Name.str() << " is not a function");
  return *FD;
}

BoundAnalysis analyse(llvm::StringRef Name) {
  std::optional<BoundAnalysis> B = analyseLaunchBound(kernel(Name), ctx());
  if (!B)
    FAIL(Name.str() << " has no body to analyse");
  return *B;
}

/// The descriptor's spelling of the kernel's bound.
std::string encoded(llvm::StringRef Name) {
  return encodeBound(analyse(Name).Bound);
}

/// The kernel's parameter names, for renderExtent and describeBound.
std::vector<std::string> paramNames(llvm::StringRef Name) {
  std::vector<std::string> Out;
  for (const ParmVarDecl *P : kernel(Name).parameters())
    Out.push_back(P->getNameAsString());
  return Out;
}

/// The --explain words for the kernel's default shape.
std::string described(llvm::StringRef Name) {
  return describeBound(analyse(Name).Bound, paramNames(Name));
}

/// Dimension `D`'s extent as offload-rewrite spells it at a call site.
std::string code(llvm::StringRef Name, unsigned D = 0) {
  return renderExtent(analyse(Name).Bound.Dims[D], paramNames(Name),
                      BoundStyle::Code);
}

/// What a bound computes with `Args[i]` as the value (or the span size) of
/// argument i: the arithmetic of LaunchBound.h, division by zero included.
int64_t evaluate(llvm::ArrayRef<BoundTerm> Terms, size_t &I,
                 llvm::ArrayRef<int64_t> Args) {
  const BoundTerm &T = Terms[I++];
  switch (T.Op) {
  case BoundTerm::Const:
    return T.Constant;
  case BoundTerm::Value:
  case BoundTerm::Count:
    return Args[T.Param];
  default:
    break;
  }
  int64_t L = evaluate(Terms, I, Args), R = evaluate(Terms, I, Args);
  switch (T.Op) {
  case BoundTerm::Add:
    return L + R;
  case BoundTerm::Sub:
    return L - R;
  case BoundTerm::Mul:
    return L * R;
  case BoundTerm::Div:
    return R ? L / R : 0;
  case BoundTerm::Min:
    return std::min(L, R);
  default:
    return std::max(L, R);
  }
}

int64_t evaluate(llvm::StringRef Name, llvm::ArrayRef<int64_t> Args,
                 unsigned D = 0) {
  DimBound B = analyse(Name).Bound.Dims[D];
  REQUIRE(B.S == DimBound::Bounded);
  size_t I = 0;
  int64_t V = evaluate(B.Terms, I, Args);
  CHECK(I == B.Terms.size());
  return V;
}

/// The line of the `// @Mark` comment in the kernel source.
unsigned markedLine(llvm::StringRef Mark) {
  llvm::StringRef Src = KernelSource;
  size_t At = Src.find(("// @" + Mark + "\n").str());
  REQUIRE(At != llvm::StringRef::npos);
  return unsigned(Src.take_front(At).count('\n')) + 1;
}

unsigned line(SourceLocation Loc) {
  REQUIRE(Loc.isValid());
  return ctx().getSourceManager().getPresumedLoc(Loc).getLine();
}

} // namespace

TEST_CASE("a bounds check on the index bounds its dimension",
          "[bound][analysis]") {
  SECTION("i < v.size(): the span's element count") {
    CHECK(encoded("k_size") == "n0|-|-");
    CHECK(described("k_size") == "one thread per v.size()");
    CHECK(code("k_size") == "(long long)v.size()");
  }
  SECTION("if (i >= n) return;: the integer argument") {
    CHECK(encoded("k_exit") == "v1:0:4:s:|-|-");
    CHECK(described("k_exit") == "one thread per n");
    CHECK(code("k_exit") == "(long long)(n)");
  }
  SECTION("the reversed and negated spellings of the same check") {
    for (const char *K : {"k_not", "k_reversed", "k_reversed_exit", "k_if_init",
                          "k_else_exit", "k_redecl"}) {
      INFO(K);
      CHECK(encoded(K) == "v1:0:4:s:|-|-");
    }
  }
  SECTION("a bound of a derived index's source: row = i / cols is no read") {
    CHECK(encoded("k_derived") == "v1:0:4:s:|-|-");
  }
  SECTION("a guard on the call itself, and a helper that reads it inside") {
    CHECK(encoded("k_call_bound") == "n0|-|-");
    CHECK(encoded("k_helper_reads_inside") == "n0|-|-");
    CHECK(encoded("k_helper_inside") == "n0|-|-");
  }
  SECTION("reads in the condition after the check are under it") {
    // Two reads under two copies of `i < n`: max(n, n), which is n.
    CHECK_FALSE(analyse("k_condition_read").Bound.lacksBound());
    CHECK(evaluate("k_condition_read", {0, 0, 37}) == 37);
  }
  SECTION("reads on both sides of a comma") {
    CHECK(encoded("k_comma") == "v1:0:4:s:|-|-");
  }
  SECTION("an exit from a loop bounds the rest of the loop body") {
    CHECK(encoded("k_loop_exit") == "v1:0:4:s:|-|-");
  }
  SECTION("a template kernel: its specialisation") {
    CHECK(encoded("k_tmpl") == "n0|-|-");
  }
}

TEST_CASE("several checks: min within a guard, max across guards",
          "[bound][analysis]") {
  SECTION("i < n && i < y.size()") {
    CHECK(encoded("k_min") == "m v2:0:4:s: n1|-|-");
    CHECK(described("k_min") == "one thread per min(n, y.size())");
    CHECK(evaluate("k_min", {0, 50, 70}) == 50);
    CHECK(evaluate("k_min", {0, 50, 30}) == 30);
  }
  SECTION("nested guards: the outer check is a read of its own") {
    // Every thread below the outer bound runs the outer check.
    CHECK(encoded("k_nested_guard") == "v1:0:4:s:|-|-");
  }
  SECTION("if (i >= n || i >= m) return;") {
    CHECK(encoded("k_or_exit") == "m v1:0:4:s: v2:0:4:s:|-|-");
  }
  SECTION("two sequential guards: every read must be reached") {
    CHECK(encoded("k_max") == "M v2:0:4:s: v3:0:4:s:|-|-");
    CHECK(described("k_max") == "one thread per max(n, m)");
    CHECK(evaluate("k_max", {0, 0, 10, 20}) == 20);
  }
  SECTION("a read under the outer guard alone: the outer bound") {
    CHECK(encoded("k_outer_read") == "v2:0:4:s:|-|-");
  }
}

TEST_CASE("<=, == and > admit one more index", "[bound][analysis]") {
  CHECK(encoded("k_le") == "+ v1:0:8:s: c1|-|-");
  CHECK(described("k_le") == "one thread per n + 1");
  CHECK(evaluate("k_le", {0, 9}) == 10);
  // i == 0: one thread.
  CHECK(evaluate("k_first", {0}) == 1);
  CHECK(encoded("k_first") == "+ c0 c1|-|-");
  // if (i > n) return;: i <= n.
  CHECK(encoded("k_gt_exit") == "+ v1:0:4:s: c1|-|-");
  // if (i != n) return;: only i == n runs.
  CHECK(encoded("k_ne_exit") == "+ v1:0:4:s: c1|-|-");
}

TEST_CASE("loops: a grid-stride for and a while", "[bound][analysis]") {
  CHECK(encoded("k_stride") == "v1:0:8:u:|-|-");
  CHECK(described("k_stride") == "one thread per n");
  CHECK(encoded("k_while") == "v1:0:4:s:|-|-");
}

TEST_CASE("2-D, 3-D and CUDA's index idiom", "[bound][analysis]") {
  SECTION("if (r < rows && c < cols)") {
    CHECK(encoded("k_2d") == "v2:0:4:s:|v1:0:4:s:|-");
    CHECK(described("k_2d") == "one thread per (cols, rows)");
    CHECK(code("k_2d", 0) == "(long long)(cols)");
    CHECK(code("k_2d", 1) == "(long long)(rows)");
    CHECK(code("k_2d", 2) == "ofld::detail::extent_unindexed");
  }
  SECTION("only z") {
    CHECK(encoded("k_3d") == "-|-|v1:0:4:s:");
    CHECK(described("k_3d") == "one thread per (1, 1, depth)");
  }
  SECTION("block_id() * block_dim() + thread_id(), in either order") {
    CHECK(encoded("k_cuda") == "v1:0:4:s:|-|-");
    CHECK(encoded("k_cuda_swapped") == "-|v1:0:4:s:|-");
  }
}

TEST_CASE("bounds a call site computes: fields, locals, std::min, sizes",
          "[bound][analysis]") {
  SECTION("p.n of a struct argument: its offset and size") {
    BoundAnalysis B = analyse("k_field");
    REQUIRE(B.Bound.Dims[0].S == DimBound::Bounded);
    REQUIRE(B.Bound.Dims[0].Terms.size() == 1);
    const BoundTerm &T = B.Bound.Dims[0].Terms[0];
    CHECK(T.Op == BoundTerm::Value);
    CHECK(T.Param == 1);
    CHECK(T.Offset == 8); // float, padding, long
    CHECK(T.Bytes == 8);
    CHECK(T.Signed);
    CHECK(T.Field == ".n");
    CHECK(described("k_field") == "one thread per p.n");
    CHECK(code("k_field") == "(long long)(p.n)");
  }
  SECTION("c.d.y of a nested struct, through a const reference") {
    CHECK(encoded("k_nested_field") == "v1:12:4:s:.d.y|-|-");
    CHECK(described("k_nested_field") == "one thread per c.d.y");
  }
  SECTION("a const local initialised from the arguments") {
    CHECK(encoded("k_const_local") == "* v1:0:4:s: v2:0:4:s:|-|-");
    CHECK(described("k_const_local") == "one thread per rows * cols");
  }
  SECTION("constants: a constexpr local, sizeof") {
    CHECK(encoded("k_constexpr") == "c64|-|-");
    CHECK(encoded("k_sizeof") == "c16|-|-");
  }
  SECTION("the argument's width and signedness") {
    CHECK(encoded("k_short") == "v1:0:2:u:|-|-");
    CHECK(encoded("k_le") == "+ v1:0:8:s: c1|-|-");
    CHECK(encoded("k_signed_minus") == "- v1:0:8:s: c10|-|-");
  }
  SECTION("std::min and std::max") {
    CHECK(encoded("k_std_min") == "m v1:0:4:s: v2:0:4:s:|-|-");
    CHECK(code("k_std_min") ==
          "ofld::detail::bound_min((long long)(n), (long long)(m))");
    CHECK(encoded("k_std_max") == "M v1:0:4:s: v2:0:4:s:|-|-");
    CHECK(described("k_std_max") == "one thread per max(n, m)");
    // A literal argument binds to a temporary; it is still a constant.
    CHECK(encoded("k_min_literal") == "m v1:0:4:s: c64|-|-");
  }
  SECTION("constant sizes: std::array, a C array, a static-extent span") {
    CHECK(encoded("k_std_array") == "c8|-|-");
    CHECK(encoded("k_c_array") == "c16|-|-");
    CHECK(encoded("k_static_span") == "c4|-|-");
    CHECK(described("k_std_array") == "one thread per 8");
  }
  SECTION("std::size of a span") { CHECK(encoded("k_std_size") == "n0|-|-"); }
  SECTION("arithmetic: x.size() - 1, n * m, n / 4") {
    CHECK(encoded("k_size_minus") == "- n0 c1|-|-");
    CHECK(described("k_size_minus") == "one thread per x.size() - 1");
    CHECK(code("k_size_minus") == "((long long)x.size() - 1LL)");
    CHECK(encoded("k_mul") == "* v1:0:4:s: v2:0:4:s:|-|-");
    CHECK(described("k_mul") == "one thread per n * m");
    CHECK(encoded("k_div") == "/ v1:0:4:s: c4|-|-");
    CHECK(code("k_div") == "ofld::detail::bound_div((long long)(n), 4LL)");
    CHECK(evaluate("k_div", {0, 10}) == 2);
  }
}

TEST_CASE("a kernel that reads no thread index runs one thread",
          "[bound][analysis]") {
  for (const char *K : {"k_none", "k_sizes_only", "k_loop_all"}) {
    INFO(K);
    BoundAnalysis B = analyse(K);
    CHECK(encodeBound(B.Bound) == "-|-|-");
    CHECK_FALSE(B.Bound.readsIndex());
    CHECK_FALSE(B.Bound.lacksBound());
    CHECK(described(K) == "one thread (the kernel reads no thread index)");
  }
}

TEST_CASE("a read that no computable bound holds is Unknown",
          "[bound][analysis][unknown]") {
  SECTION("an unguarded y[i], at the read") {
    BoundAnalysis B = analyse("k_unguarded");
    CHECK(encodeBound(B.Bound) == "?|-|-");
    CHECK(B.Bound.lacksBound());
    CHECK(line(B.Unguarded[0]) == markedLine("unguarded"));
    CHECK_FALSE(B.Unguarded[1].isValid());
    CHECK_THAT(described("k_unguarded"),
               Catch::StartsWith("none: the kernel reads ofld::global_id(0)"));
    CHECK(code("k_unguarded") == "ofld::detail::extent_unknown");
  }
  SECTION("a read before the guard") {
    BoundAnalysis B = analyse("k_read_before");
    CHECK(encodeBound(B.Bound) == "?|-|-");
    CHECK(line(B.Unguarded[0]) == markedLine("read_before"));
  }
  SECTION("a bound read from memory: i < x[0]") {
    CHECK(encoded("k_memory_bound") == "?|-|-");
  }
  SECTION("a float bound") { CHECK(encoded("k_float_bound") == "?|-|-"); }
  SECTION("the index passed to a helper outside any guard") {
    CHECK(encoded("k_helper_outside") == "?|-|-");
  }
  SECTION("a helper that reads global_id() itself, called unguarded") {
    BoundAnalysis B = analyse("k_helper_reads");
    CHECK(encodeBound(B.Bound) == "?|-|-");
    CHECK(line(B.Unguarded[0]) == markedLine("helper_reads"));
  }
  SECTION("a derived index read before the guard") {
    CHECK(encoded("k_derived_outside") == "?|-|-");
  }
  SECTION("checks that bound nothing: ||, !=, the else branch") {
    CHECK(encoded("k_or_guard") == "?|-|-");
    CHECK(encoded("k_ne_guard") == "?|-|-");
    CHECK(encoded("k_else") == "?|-|-");
    CHECK(encoded("k_ternary") == "?|-|-");
  }
  SECTION("an exit that does work first is no early exit") {
    CHECK(encoded("k_exit_with_work") == "?|-|-");
  }
  SECTION("an index or bound assigned after its initialisation") {
    CHECK(encoded("k_assigned_index") == "?|-|-");
    CHECK(encoded("k_assigned_bound") == "?|-|-");
    // Written in a lambda or through its address: not the initial value.
    CHECK(encoded("k_lambda_writes") == "?|-|-");
    CHECK(encoded("k_pointer_writes") == "?|-|-");
  }
  SECTION("an update of the index before any guard reads it") {
    CHECK(encoded("k_grows") == "?|-|-");
  }
  SECTION("a reference to the index, a copy of a struct argument, a shift") {
    CHECK(encoded("k_index_ref") == "?|-|-");
    CHECK(encoded("k_local_struct") == "?|-|-");
    CHECK(encoded("k_shift") == "?|-|-");
  }
  SECTION("an early exit holds to the end of its own block only") {
    CHECK(encoded("k_exit_in_block") == "?|-|-");
  }
  SECTION("a check on a derived index, not the index itself") {
    CHECK(encoded("k_derived_guard") == "?|-|-");
  }
  SECTION("a do-while runs its body before the check") {
    CHECK(encoded("k_do_while") == "?|-|-");
  }
  SECTION("thread_id alone, or a CUDA idiom of mixed dimensions") {
    CHECK(encoded("k_thread_only") == "?|-|-");
    CHECK(encoded("k_cuda_mixed") == "?|-|-");
  }
  SECTION("global_id(d) of a dimension only known at run time: all three") {
    CHECK(encoded("k_dynamic_dim") == "?|?|?");
  }
  SECTION("a bound on one dimension leaves the other unknown") {
    BoundAnalysis B = analyse("k_unguarded_y");
    CHECK(encodeBound(B.Bound) == "v1:0:4:s:|?|-");
    CHECK_FALSE(B.Unguarded[0].isValid());
    CHECK(line(B.Unguarded[1]) == markedLine("unguarded_y"));
    CHECK_THAT(describeBound(B.Bound, paramNames("k_unguarded_y")),
               Catch::StartsWith("none: the kernel reads ofld::global_id(1)"));
  }
}

TEST_CASE("a declaration without a body has no bound here",
          "[bound][analysis]") {
  CHECK_FALSE(analyseLaunchBound(kernel("k_declared_only"), ctx()));
}

TEST_CASE("offload-rewrite's spelling of a bound is C++ that default_dims "
          "takes",
          "[bound][render]") {
  // min(n, p.n, x.size() - 1, y.size() / n + 1): every kind of term, and a
  // division that is by zero for n == 0, where a plain '/' would not even
  // be a constant expression.
  using K = BoundTerm;
  auto Term = [](K::Kind Op, unsigned Param = 0, std::string Field = "") {
    BoundTerm T;
    T.Op = Op;
    T.Param = Param;
    T.Field = std::move(Field);
    T.Bytes = 4;
    return T;
  };
  BoundTerm One;
  One.Constant = 1;
  DimBound D;
  D.S = DimBound::Bounded;
  D.Terms = {Term(K::Min),
             Term(K::Min),
             Term(K::Min),
             Term(K::Value, 2),
             Term(K::Value, 3, ".n"),
             Term(K::Sub),
             Term(K::Count, 0),
             One,
             Term(K::Add),
             Term(K::Div),
             Term(K::Count, 1),
             Term(K::Value, 2),
             One};
  std::vector<std::string> Names = {"x", "y", "n", "p"};
  std::string Extent = renderExtent(D, Names, BoundStyle::Code);
  INFO(Extent);
  CHECK(renderExtent(D, Names, BoundStyle::Words) ==
        "min(min(min(n, p.n), (x.size() - 1)), ((y.size() / n) + 1))");
  size_t I = 0;
  CHECK(evaluate(D.Terms, I, {6, 8, 4, 7}) == 3);
  // Compiled and evaluated by clang, against the real launch.hpp.
  std::string Src = R"cpp(
#include "offload/launch.hpp"
#include <span>
struct Params { float scale; long n; };
constexpr long long extent(std::span<const float> x, std::span<float> y,
                           int n, Params p) { return )cpp" +
                    Extent + R"cpp(; }
constexpr float X[6] = {};
constexpr long long at(int n, long pn) {
  float Buf[8] = {};
  return extent(std::span(X), std::span(Buf), n, {1.0f, pn});
}
static_assert(at(4, 7) == 3);
static_assert(at(0, 7) == 0);
static_assert(at(9, 2) == 1);
static_assert(at(2, 3) == 2);
long long dims(std::uint64_t *D) {
  const long long E[3] = {at(4, 7), ofld::detail::extent_unindexed,
                          ofld::detail::extent_unknown};
  ofld::detail::default_dims(nullptr, E, D);
  return E[0];
}
)cpp";
  auto Unit = tooling::buildASTFromCodeWithArgs(
      Src,
      {"-std=c++20", "-resource-dir", OFFLOAD_CLANG_RESOURCE_DIR, "-I",
       OFFLOAD_SHIM_INCLUDE_DIR},
      "extent.cpp");
  REQUIRE(Unit);
  CHECK_FALSE(Unit->getDiagnostics().hasErrorOccurred());
}
