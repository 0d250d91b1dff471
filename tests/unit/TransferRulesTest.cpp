//===- TransferRulesTest.cpp - unit tests of the transfer table -----------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Every row of the type -> transfer table, and every rejected parameter form,
// checked on ASTs that clang really built from C++20 with libstdc++, so the
// std::span and std::array layouts are the ones the plugin will meet.
//
//===----------------------------------------------------------------------===//

#include "offload/Core/TransferRules.h"
#include "Printers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <cstring>
#include <memory>
#include <span>
#include <string>

using namespace clang;
using namespace offload;

namespace {

// One translation unit holds every kernel: parsing <string> and <span> is
// the slow part, so it is done once and shared by all test cases. Kernels are
// definitions whose bodies take sizeof their reference parameters, which
// forces std::array/std::span specialisations to be instantiated, as a real
// kernel body would (the table needs complete types for sizes and offsets).
constexpr const char *KernelSource = R"cpp(
#include <array>
#include <complex>
#include <coroutine>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <utility>

#define USE(x) (void)sizeof(x)

struct Pod { float X; double Y; };             // 16 bytes
struct Poly { virtual ~Poly() {} int V = 0; };  // has a vtable pointer

// Accepted rows.
void k_byvalue(int n, Pod p) {}
void k_constref(const Pod &p) { USE(p); }
void k_constarrayref(const float (&a)[8]) { USE(a); }
void k_constarrayref2d(const int (&m)[2][3]) { USE(m); }
void k_mutref(Pod &p) { USE(p); }
void k_mutarrayref(double (&a)[3]) { USE(a); }
void k_spanconst(std::span<const float> s) {}
void k_spanmut(std::span<double> s) {}
void k_spanstatic(std::span<int, 4> s) {}
void k_outref(Pod &p, float (&a)[5]) { USE(p); USE(a); }
void k_outspan(std::span<float> s) {}
void k_conststdarray(const std::array<float, 6> &a) { USE(a); }
void k_mutstdarray(std::array<std::int16_t, 5> &a) { USE(a); }

// Reductions: the rule matches ofld::sum/min/max by name and namespace
// (offload/reduction.hpp's classes; empty ones do here).
namespace ofld {
template <class T> class sum {};
template <class T> class min {};
template <class T> class max {};
} // namespace ofld
void k_reductions(ofld::sum<double> &s, ofld::min<int> &m,
                  ofld::max<std::int8_t> &x, ofld::sum<unsigned long> &u) {}
void k_reductions_bad(ofld::sum<double> s, const ofld::min<int> &c,
                      ofld::sum<std::string> &str, ofld::max<bool> &b,
                      ofld::sum<long double> &ld, ofld::max<float> &&r) {}

// Rejected forms.
void k_rawpointer(float *p, const int *q) {}
void k_spanofpointers(std::span<float *> s) {}
void k_funcpointer(void (*f)(int), void (&g)(int)) {}
void k_memfnpointer(int (Pod::*m)() const) {}
void k_spanoffuncpointers(std::span<void (*)(int)> s) {}
void k_string(std::string s, const std::string &r) { USE(r); }
void k_polymorphic(const Poly &p, Poly &q) { USE(p); USE(q); }
void k_rvalue(Pod &&p) { USE(p); }
void k_refpointer(float *&p, float *const &q) {}
void k_spanref(std::span<float> &a, const std::span<const float> &b) {}
void k_spanofstrings(std::span<std::string> s) {}

// Trivially copyable, but holding host addresses (and one that does not).
struct PtrInner { int N; float *Data; };
struct PtrOuter { int Id; PtrInner Inner; };
struct PtrBase { const char *Name; };
struct PtrDerived : PtrBase { int X; };
struct Node { int V; Node *Next; };
struct Grid { Node Cells[2]; };
struct RefField { const int &R; };
struct SpanField { std::span<float> S; };
struct FnField { int (*F)(int); };
struct MemberOffset { float Pod::*Field; };
void k_fields(PtrOuter a, const PtrOuter &b, PtrDerived &c, const Grid &d,
              RefField e, const SpanField &f, FnField g, MemberOffset h,
              std::span<const Node> i, std::span<const std::span<float>> j,
              const std::array<Node, 2> &k) {
  USE(b); USE(c); USE(d); USE(f); USE(k); USE(std::span<float>);
}
void k_outconst(const Pod &p, const float (&a)[4], std::span<const float> s,
                const std::array<int, 2> &b) { USE(p); USE(a); USE(b); }
void k_outbyvalue(int n, Pod p, std::array<float, 3> a) {}

// A trivial copy (copy constructor and destructor), not trivially copyable:
// the standard vocabulary types and a user aggregate with its own
// assignment operator. And what still fails: a destructor that runs code, a
// deleted copy, and a pointer inside a pair.
struct Assigns {
  int A; float B;
  Assigns &operator=(const Assigns &O) { A = O.A; B = O.B; return *this; }
};
struct Destructs { int A; ~Destructs() {} };
struct NoCopy { int A; NoCopy(const NoCopy &) = delete; };
using PairIF = std::pair<int, float>;
using Tuple3 = std::tuple<int, float, double>;
using TupleCP = std::tuple<int, const char *>;
void k_vocabulary(PairIF a, Tuple3 b, std::optional<float> c,
                  std::complex<double> d, Assigns e,
                  const PairIF &f, Tuple3 &g, const std::optional<int> &h,
                  std::complex<float> &i, std::span<const PairIF> j,
                  std::span<Tuple3> k, std::span<std::complex<float>> l,
                  std::span<std::optional<double>> m, Assigns &n,
                  std::array<PairIF, 3> &o) {
  USE(f); USE(g); USE(h); USE(i); USE(n); USE(o); USE(std::optional<double>);
}
void k_vocabulary_bad(Destructs a, const Destructs &b, std::span<Destructs> c,
                      const NoCopy &d, std::pair<int, float *> e,
                      std::span<const TupleCP> f,
                      std::optional<std::string> g) {
  USE(b); USE(d); USE(TupleCP);
}

// Kernel signatures.
void k_ok(int n) {}
int k_returns(int n) { return n; }
void k_variadic(int n, ...) {}
struct Methods {
  void member(int) {}
  static void staticMember(int) {}
  virtual void virtualMember(int) {}
  virtual int virtualReturns() { return 0; }
};
template <class T> T k_dependent(T x) { return x; }
int main() { return 0; }

// A void coroutine needs a promise type chosen by coroutine_traits.
struct VoidPromise {
  void get_return_object() {}
  std::suspend_never initial_suspend() noexcept { return {}; }
  std::suspend_never final_suspend() noexcept { return {}; }
  void return_void() {}
  void unhandled_exception() {}
};
template <> struct std::coroutine_traits<void, long> {
  using promise_type = VoidPromise;
};
void k_coroutine(long) { co_return; }
)cpp";

ASTUnit &sharedAST() {
  static std::unique_ptr<ASTUnit> AST = [] {
    auto Unit = tooling::buildASTFromCodeWithArgs(
        KernelSource,
        {"-std=c++20", "-resource-dir", OFFLOAD_CLANG_RESOURCE_DIR},
        "kernels.cpp");
    // A parse error would silently drop kernels; stop every test instead.
    if (!Unit || Unit->getDiagnostics().hasErrorOccurred())
      FAIL("the kernel source did not compile");
    return Unit;
  }();
  return *AST;
}

ASTContext &ctx() { return sharedAST().getASTContext(); }

/// Finds `A::B::f` by plain name lookup, one scope at a time; a function
/// template yields its pattern.
const FunctionDecl *findFunction(llvm::StringRef QualName) {
  ASTContext &Ctx = ctx();
  const DeclContext *DC = Ctx.getTranslationUnitDecl();
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  QualName.split(Parts, "::");
  for (size_t I = 0; I < Parts.size(); ++I) {
    auto Found = DC->lookup(&Ctx.Idents.get(Parts[I]));
    if (Found.empty())
      return nullptr;
    NamedDecl *ND = Found.front();
    if (I + 1 < Parts.size()) {
      DC = dyn_cast<DeclContext>(ND);
      if (!DC)
        return nullptr;
      continue;
    }
    if (auto *FTD = dyn_cast<FunctionTemplateDecl>(ND))
      return FTD->getTemplatedDecl();
    return dyn_cast<FunctionDecl>(ND);
  }
  return nullptr;
}

const FunctionDecl &kernel(llvm::StringRef Name) {
  const FunctionDecl *FD = findFunction(Name);
  if (!FD)
    FAIL("no function named " << Name.str() << " in the kernel source");
  return *FD;
}

ParamClassification classify(llvm::StringRef Kernel, unsigned Index, bool IsOut,
                             bool IsIn = false) {
  const FunctionDecl &FD = kernel(Kernel);
  REQUIRE(Index < FD.getNumParams());
  return classifyParameter(*FD.getParamDecl(Index), IsOut, ctx(), IsIn);
}

/// The parameter must be accepted; says which diagnostic it got if not.
ParamRule accepted(llvm::StringRef Kernel, unsigned Index, bool IsOut = false) {
  ParamClassification C = classify(Kernel, Index, IsOut);
  if (const auto *V = std::get_if<RuleViolation>(&C))
    FAIL(Kernel.str() << " param " << Index << " rejected with "
                      << test::name(V->Id) << " on '" << V->Type.getAsString()
                      << "'");
  ParamRule R = std::get<ParamRule>(C);
  // The classifier and the printed table must never disagree on direction.
  CHECK(R.Layout.Map == ruleFor(R.Row).Map);
  return R;
}

/// The parameter must be rejected; says which row it matched if not.
RuleViolation rejected(llvm::StringRef Kernel, unsigned Index,
                       bool IsOut = false) {
  ParamClassification C = classify(Kernel, Index, IsOut);
  if (const auto *R = std::get_if<ParamRule>(&C))
    FAIL(Kernel.str() << " param " << Index << " accepted as row "
                      << test::name(R->Row));
  return std::get<RuleViolation>(C);
}

/// The first signature violation of a kernel by name, or "ok".
std::string signature(llvm::StringRef Kernel) {
  std::optional<DiagId> D = checkKernelSignature(kernel(Kernel));
  return D ? test::name(*D) : "ok";
}

/// Canonical spelling, so typedefs such as std::int16_t compare by meaning.
std::string canon(QualType T) {
  // The context's policy is C++'s: `Pod`, not C's `struct Pod`.
  if (T.isNull())
    return "<null>";
  return T.getCanonicalType().getAsString(ctx().getPrintingPolicy());
}

} // namespace

//===----------------------------------------------------------------------===//
// The table itself.
//===----------------------------------------------------------------------===//

TEST_CASE("transfer table lists one row per RuleId, in enum order",
          "[transfer][table]") {
  llvm::ArrayRef<TransferRule> Table = transferTable();
  REQUIRE(Table.size() == unsigned(RuleId::SpanFields) + 1);
  for (unsigned I = 0; I < Table.size(); ++I) {
    INFO("row " << I);
    // ruleFor indexes the array by the enum, so the order is load-bearing.
    CHECK(Table[I].Id == RuleId(I));
    CHECK(&ruleFor(RuleId(I)) == &Table[I]);
    CHECK(llvm::StringRef(Table[I].ParamForm).size() > 0);
    CHECK(llvm::StringRef(Table[I].SizeRule).size() > 0);
  }
  // Directions the README promises, spot-checked at both ends of the table.
  CHECK(ruleFor(RuleId::ByValue).Map == MapKind::Literal);
  CHECK(ruleFor(RuleId::OutRef).Map == MapKind::From);
  CHECK(ruleFor(RuleId::OutSpan).Map == MapKind::From);
  CHECK(ruleFor(RuleId::MutStdArray).Map == MapKind::ToFrom);
}

//===----------------------------------------------------------------------===//
// Accepted rows, one test case per row of the table.
//===----------------------------------------------------------------------===//

TEST_CASE("ByValue: a trivial copy by value travels as a literal",
          "[transfer][row]") {
  SECTION("int") {
    ParamRule R = accepted("k_byvalue", 0);
    CHECK(R.Row == RuleId::ByValue);
    CHECK(R.Layout.Kind == PayloadKind::Value);
    CHECK(R.Layout.Map == MapKind::Literal);
    CHECK(R.Layout.Bytes == sizeof(int));
    CHECK(R.Layout.Count == 0);
    CHECK(canon(R.Pointee) == "int");
    CHECK(R.SizeExpr == "sizeof(n)");
  }
  SECTION("struct") {
    ParamRule R = accepted("k_byvalue", 1);
    CHECK(R.Row == RuleId::ByValue);
    CHECK(R.Layout.Kind == PayloadKind::Value);
    CHECK(R.Layout.Map == MapKind::Literal);
    CHECK(R.Layout.Bytes == 16); // float + padding + double
    CHECK(R.Layout.Count == 0);
    CHECK(canon(R.Pointee) == "Pod");
    CHECK(R.SizeExpr == "sizeof(p)");
  }
}

TEST_CASE("ConstRef: const T& is copied to the device", "[transfer][row]") {
  ParamRule R = accepted("k_constref", 0);
  CHECK(R.Row == RuleId::ConstRef);
  CHECK(R.Layout.Kind == PayloadKind::Object);
  CHECK(R.Layout.Map == MapKind::To);
  CHECK(R.Layout.Bytes == 16);
  CHECK(R.Layout.Count == 0);
  CHECK(canon(R.Pointee) == "const Pod");
  CHECK(R.SizeExpr == "sizeof(p)");
}

TEST_CASE("ConstArrayRef: const T(&)[N] is copied to the device",
          "[transfer][row]") {
  SECTION("one dimension") {
    ParamRule R = accepted("k_constarrayref", 0);
    CHECK(R.Row == RuleId::ConstArrayRef);
    CHECK(R.Layout.Kind == PayloadKind::Object);
    CHECK(R.Layout.Map == MapKind::To);
    CHECK(R.Layout.Bytes == 8 * sizeof(float));
    CHECK(R.Layout.Count == 8);
    CHECK(canon(R.Pointee) == "const float[8]");
    CHECK(R.SizeExpr == "sizeof(a)");
  }
  SECTION("two dimensions: Count is the outer extent, Bytes the whole") {
    ParamRule R = accepted("k_constarrayref2d", 0);
    CHECK(R.Row == RuleId::ConstArrayRef);
    CHECK(R.Layout.Map == MapKind::To);
    CHECK(R.Layout.Bytes == 2 * 3 * sizeof(int));
    CHECK(R.Layout.Count == 2);
    CHECK(R.SizeExpr == "sizeof(m)");
  }
}

TEST_CASE("MutRef: T& is copied both ways", "[transfer][row]") {
  ParamRule R = accepted("k_mutref", 0);
  CHECK(R.Row == RuleId::MutRef);
  CHECK(R.Layout.Kind == PayloadKind::Object);
  CHECK(R.Layout.Map == MapKind::ToFrom);
  CHECK(R.Layout.Bytes == 16);
  CHECK(R.Layout.Count == 0);
  CHECK(canon(R.Pointee) == "Pod");
  CHECK(R.SizeExpr == "sizeof(p)");
}

TEST_CASE("MutArrayRef: T(&)[N] is copied both ways", "[transfer][row]") {
  ParamRule R = accepted("k_mutarrayref", 0);
  CHECK(R.Row == RuleId::MutArrayRef);
  CHECK(R.Layout.Kind == PayloadKind::Object);
  CHECK(R.Layout.Map == MapKind::ToFrom);
  CHECK(R.Layout.Bytes == 3 * sizeof(double));
  CHECK(R.Layout.Count == 3);
  CHECK(canon(R.Pointee) == "double[3]");
  CHECK(R.SizeExpr == "sizeof(a)");
}

/// Checks the span offsets the classifier found against the span object that
/// this very binary builds: the test is compiled against the same libstdc++
/// as the parsed source, so a wrong offset reads the wrong bytes here too.
template <class SpanT>
static void checkSpanOffsetsAgainstHost(const ParamLayout &L) {
  using Elem = typename SpanT::element_type;
  Elem Buf[7] = {};
  SpanT S(Buf, 7);
  REQUIRE(L.SpanBytes == sizeof(SpanT));
  REQUIRE(L.DataOffset + sizeof(void *) <= sizeof(SpanT));
  REQUIRE(L.CountOffset + sizeof(size_t) <= sizeof(SpanT));
  unsigned char Raw[sizeof(SpanT)];
  std::memcpy(Raw, &S, sizeof(SpanT));
  Elem *Data;
  std::memcpy(&Data, Raw + L.DataOffset, sizeof Data);
  CHECK(Data == Buf);
  size_t Count;
  std::memcpy(&Count, Raw + L.CountOffset, sizeof Count);
  CHECK(Count == 7);
}

TEST_CASE("SpanConst: std::span<const T> is copied to the device",
          "[transfer][row][span]") {
  ParamRule R = accepted("k_spanconst", 0);
  CHECK(R.Row == RuleId::SpanConst);
  CHECK(R.Layout.Kind == PayloadKind::Span);
  CHECK(R.Layout.Map == MapKind::To);
  CHECK(R.Layout.Bytes == sizeof(float)); // per element
  CHECK(R.Layout.Count == 0);             // dynamic extent
  // libstdc++ on x86-64: { T* _M_ptr; size_t _M_extent_value; }.
  CHECK(R.Layout.DataOffset == 0);
  CHECK(R.Layout.CountOffset == 8);
  CHECK(R.Layout.SpanBytes == 16);
  CHECK(canon(R.Pointee) == "const float");
  CHECK(R.SizeExpr == "s.size_bytes()");
  checkSpanOffsetsAgainstHost<std::span<const float>>(R.Layout);
}

TEST_CASE("SpanMut: std::span<T> is copied both ways",
          "[transfer][row][span]") {
  SECTION("dynamic extent") {
    ParamRule R = accepted("k_spanmut", 0);
    CHECK(R.Row == RuleId::SpanMut);
    CHECK(R.Layout.Kind == PayloadKind::Span);
    CHECK(R.Layout.Map == MapKind::ToFrom);
    CHECK(R.Layout.Bytes == sizeof(double));
    CHECK(R.Layout.Count == 0);
    CHECK(R.Layout.DataOffset == 0);
    CHECK(R.Layout.CountOffset == 8);
    CHECK(R.Layout.SpanBytes == 16);
    CHECK(canon(R.Pointee) == "double");
    CHECK(R.SizeExpr == "s.size_bytes()");
    checkSpanOffsetsAgainstHost<std::span<double>>(R.Layout);
  }
  SECTION("static extent: the count is in the type, the object is a pointer") {
    ParamRule R = accepted("k_spanstatic", 0);
    CHECK(R.Row == RuleId::SpanMut);
    CHECK(R.Layout.Kind == PayloadKind::Span);
    CHECK(R.Layout.Map == MapKind::ToFrom);
    CHECK(R.Layout.Bytes == sizeof(int));
    CHECK(R.Layout.Count == 4);
    CHECK(R.Layout.DataOffset == 0);
    CHECK(R.Layout.CountOffset == 0); // no size member to point at
    CHECK(R.Layout.SpanBytes == 8);
    CHECK(R.Layout.SpanBytes == sizeof(std::span<int, 4>));
    CHECK(R.SizeExpr == "s.size_bytes()");
  }
}

TEST_CASE("OutRef: [[offload::out]] T& only comes back", "[transfer][row]") {
  SECTION("object") {
    ParamRule R = accepted("k_outref", 0, /*IsOut=*/true);
    CHECK(R.Row == RuleId::OutRef);
    CHECK(R.Layout.Kind == PayloadKind::Object);
    CHECK(R.Layout.Map == MapKind::From);
    CHECK(R.Layout.Bytes == 16);
    CHECK(R.Layout.Count == 0);
    CHECK(canon(R.Pointee) == "Pod");
    CHECK(R.SizeExpr == "sizeof(p)");
  }
  SECTION("array") {
    ParamRule R = accepted("k_outref", 1, /*IsOut=*/true);
    CHECK(R.Row == RuleId::OutRef);
    CHECK(R.Layout.Kind == PayloadKind::Object);
    CHECK(R.Layout.Map == MapKind::From);
    CHECK(R.Layout.Bytes == 5 * sizeof(float));
    CHECK(R.Layout.Count == 5);
    CHECK(R.SizeExpr == "sizeof(a)");
  }
  SECTION("the same parameter without the attribute goes both ways") {
    CHECK(accepted("k_outref", 0).Row == RuleId::MutRef);
    CHECK(accepted("k_outref", 1).Row == RuleId::MutArrayRef);
  }
}

TEST_CASE("InRef, InSpan: [[offload::in]] T& and std::span<T> only go in",
          "[transfer][row]") {
  ParamClassification Ref = classify("k_outref", 0, false, /*IsIn=*/true);
  REQUIRE(std::holds_alternative<ParamRule>(Ref));
  const ParamRule &R = std::get<ParamRule>(Ref);
  CHECK(R.Row == RuleId::InRef);
  CHECK(R.Layout.Kind == PayloadKind::Object);
  CHECK(R.Layout.Map == MapKind::To);
  CHECK(R.Layout.Scratch);
  CHECK(R.Layout.Bytes == 16);
  ParamClassification Span = classify("k_outspan", 0, false, /*IsIn=*/true);
  REQUIRE(std::holds_alternative<ParamRule>(Span));
  const ParamRule &S = std::get<ParamRule>(Span);
  CHECK(S.Row == RuleId::InSpan);
  CHECK(S.Layout.Kind == PayloadKind::Span);
  CHECK(S.Layout.Map == MapKind::To);
  CHECK(S.Layout.Scratch);
  CHECK(S.SizeExpr == "s.size_bytes()");
  // Without the attribute: both ways, and no private copy.
  CHECK_FALSE(accepted("k_outspan", 0).Layout.Scratch);
}

TEST_CASE("[[offload::in]] where it says nothing, or with out, is rejected",
          "[transfer][reject]") {
  auto In = [](llvm::StringRef K, unsigned I, bool IsOut = false) {
    ParamClassification C = classify(K, I, IsOut, /*IsIn=*/true);
    REQUIRE(std::holds_alternative<RuleViolation>(C));
    return std::get<RuleViolation>(C).Id;
  };
  CHECK(In("k_constref", 0) == DiagId::InOnConst);
  CHECK(In("k_spanconst", 0) == DiagId::InOnConst);
  CHECK(In("k_byvalue", 0) == DiagId::InOnByValue);
  CHECK(In("k_outspan", 0, /*IsOut=*/true) == DiagId::InAndOut);
  CHECK(In("k_reductions", 0) == DiagId::ReductionQualified);
}

TEST_CASE("OutSpan: [[offload::out]] std::span<T> only comes back",
          "[transfer][row][span]") {
  ParamRule R = accepted("k_outspan", 0, /*IsOut=*/true);
  CHECK(R.Row == RuleId::OutSpan);
  CHECK(R.Layout.Kind == PayloadKind::Span);
  CHECK(R.Layout.Map == MapKind::From);
  CHECK(R.Layout.Bytes == sizeof(float));
  CHECK(R.Layout.Count == 0);
  CHECK(R.Layout.DataOffset == 0);
  CHECK(R.Layout.CountOffset == 8);
  CHECK(R.Layout.SpanBytes == 16);
  CHECK(canon(R.Pointee) == "float");
  CHECK(R.SizeExpr == "s.size_bytes()");
  // Without the attribute the same span is copied both ways.
  CHECK(accepted("k_outspan", 0).Row == RuleId::SpanMut);
}

TEST_CASE("ConstStdArray: const std::array<T, N>& is copied to the device",
          "[transfer][row]") {
  ParamRule R = accepted("k_conststdarray", 0);
  CHECK(R.Row == RuleId::ConstStdArray);
  CHECK(R.Layout.Kind == PayloadKind::Object);
  CHECK(R.Layout.Map == MapKind::To);
  CHECK(R.Layout.Bytes == sizeof(std::array<float, 6>));
  CHECK(R.Layout.Bytes == 24);
  CHECK(R.Layout.Count == 6);
  CHECK(canon(R.Pointee) == "const std::array<float, 6>");
  CHECK(R.SizeExpr == "sizeof(a)");
}

TEST_CASE("MutStdArray: std::array<T, N>& is copied both ways",
          "[transfer][row]") {
  ParamRule R = accepted("k_mutstdarray", 0);
  CHECK(R.Row == RuleId::MutStdArray);
  CHECK(R.Layout.Kind == PayloadKind::Object);
  CHECK(R.Layout.Map == MapKind::ToFrom);
  CHECK(R.Layout.Bytes == sizeof(std::array<short, 5>));
  CHECK(R.Layout.Bytes == 10);
  CHECK(R.Layout.Count == 5);
  CHECK(canon(R.Pointee) == "std::array<short, 5>");
  CHECK(R.SizeExpr == "sizeof(a)");
}

//===----------------------------------------------------------------------===//
// Rejected parameter forms.
//===----------------------------------------------------------------------===//

TEST_CASE("Reduction: ofld::sum/min/max<T>& move T both ways",
          "[transfer][row]") {
  ParamRule S = accepted("k_reductions", 0);
  CHECK(S.Row == RuleId::Reduction);
  CHECK(S.Layout.Kind == PayloadKind::Object);
  CHECK(S.Layout.Map == MapKind::ToFrom);
  CHECK(S.Layout.Bytes == 8);
  CHECK(S.Layout.Reduce == ReduceKind::Sum);
  CHECK(canon(S.Pointee) == "double");
  CHECK(S.SizeExpr == "sizeof(s)");
  ParamRule M = accepted("k_reductions", 1);
  CHECK(M.Layout.Reduce == ReduceKind::Min);
  CHECK(M.Layout.Bytes == 4);
  ParamRule X = accepted("k_reductions", 2);
  CHECK(X.Layout.Reduce == ReduceKind::Max);
  CHECK(X.Layout.Bytes == 1);
  CHECK(accepted("k_reductions", 3).Layout.Bytes == 8);
}

TEST_CASE("reductions by value, const, out or of other types are rejected",
          "[transfer][reject]") {
  CHECK(rejected("k_reductions_bad", 0).Id == DiagId::ReductionByValue);
  CHECK(rejected("k_reductions_bad", 1).Id == DiagId::ReductionQualified);
  // [[offload::out]] on a reduction: the launch folds the old value in.
  CHECK(rejected("k_reductions", 0, /*IsOut=*/true).Id ==
        DiagId::ReductionQualified);
  RuleViolation Str = rejected("k_reductions_bad", 2);
  CHECK(Str.Id == DiagId::ReductionType);
  CHECK(canon(Str.Suggestion) == "std::basic_string<char>");
  CHECK(rejected("k_reductions_bad", 3).Id == DiagId::ReductionType);
  CHECK(rejected("k_reductions_bad", 4).Id == DiagId::ReductionType);
  CHECK(rejected("k_reductions_bad", 5).Id == DiagId::ReductionByValue);
}

TEST_CASE("raw pointers are rejected with a span suggestion",
          "[transfer][reject]") {
  SECTION("T*") {
    RuleViolation V = rejected("k_rawpointer", 0);
    CHECK(V.Id == DiagId::ParamRawPointer);
    CHECK(canon(V.Type) == "float *");
    CHECK(canon(V.Suggestion) == "float");
  }
  SECTION("const T* keeps the const in the suggestion") {
    RuleViolation V = rejected("k_rawpointer", 1);
    CHECK(V.Id == DiagId::ParamRawPointer);
    CHECK(canon(V.Type) == "const int *");
    CHECK(canon(V.Suggestion) == "const int");
  }
  SECTION("span of pointers") {
    RuleViolation V = rejected("k_spanofpointers", 0);
    CHECK(V.Id == DiagId::ParamRawPointer);
    CHECK(canon(V.Type) == "float *");
    CHECK(canon(V.Suggestion) == "float");
  }
}

TEST_CASE("function pointers are rejected", "[transfer][reject]") {
  SECTION("pointer to function") {
    RuleViolation V = rejected("k_funcpointer", 0);
    CHECK(V.Id == DiagId::ParamFunctionPointer);
    CHECK(canon(V.Type) == "void (*)(int)");
    CHECK(V.Suggestion.isNull());
  }
  SECTION("reference to function") {
    RuleViolation V = rejected("k_funcpointer", 1);
    CHECK(V.Id == DiagId::ParamFunctionPointer);
    CHECK(canon(V.Type) == "void (&)(int)");
  }
  SECTION("pointer to member function") {
    RuleViolation V = rejected("k_memfnpointer", 0);
    CHECK(V.Id == DiagId::ParamFunctionPointer);
  }
  SECTION("span of function pointers") {
    // Not a raw pointer with a `std::span<void (int)>` suggestion.
    RuleViolation V = rejected("k_spanoffuncpointers", 0);
    CHECK(V.Id == DiagId::ParamFunctionPointer);
    CHECK(V.Suggestion.isNull());
  }
}

TEST_CASE("non-trivially-copyable types are rejected", "[transfer][reject]") {
  SECTION("std::string by value") {
    RuleViolation V = rejected("k_string", 0);
    CHECK(V.Id == DiagId::ParamNotTriviallyCopyable);
    // By value, the offending type is the parameter's own type.
    QualType Param = kernel("k_string").getParamDecl(0)->getType();
    CHECK(canon(V.Type) == canon(Param));
    CHECK(canon(V.Type).find("basic_string") != std::string::npos);
  }
  SECTION("std::string by const&") {
    RuleViolation V = rejected("k_string", 1);
    CHECK(V.Id == DiagId::ParamNotTriviallyCopyable);
    CHECK(canon(V.Type).find("basic_string") != std::string::npos);
  }
  SECTION("span of std::string") {
    RuleViolation V = rejected("k_spanofstrings", 0);
    CHECK(V.Id == DiagId::ParamSpanElement);
    CHECK(canon(V.Type).find("basic_string") != std::string::npos);
    CHECK(canon(V.Type).find("span") == std::string::npos); // the element
  }
}

TEST_CASE("references to polymorphic classes are rejected",
          "[transfer][reject]") {
  // Poly is also not trivially copyable; the vtable is the better reason.
  SECTION("const&") {
    RuleViolation V = rejected("k_polymorphic", 0);
    CHECK(V.Id == DiagId::ParamPolymorphic);
    CHECK(canon(V.Type) == "const Poly");
  }
  SECTION("&") {
    RuleViolation V = rejected("k_polymorphic", 1);
    CHECK(V.Id == DiagId::ParamPolymorphic);
    CHECK(canon(V.Type) == "Poly");
  }
}

TEST_CASE("rvalue references are rejected", "[transfer][reject]") {
  RuleViolation V = rejected("k_rvalue", 0);
  CHECK(V.Id == DiagId::ParamRValueReference);
  CHECK(canon(V.Type) == "Pod &&");
  // Checked before the out flag: the type is wrong whatever the attribute.
  CHECK(rejected("k_rvalue", 0, /*IsOut=*/true).Id ==
        DiagId::ParamRValueReference);
}

TEST_CASE("references to pointers are rejected", "[transfer][reject]") {
  SECTION("T*&") {
    RuleViolation V = rejected("k_refpointer", 0);
    CHECK(V.Id == DiagId::ParamReferenceToPointer);
    CHECK(canon(V.Type) == "float *&");
  }
  SECTION("T* const&") {
    RuleViolation V = rejected("k_refpointer", 1);
    CHECK(V.Id == DiagId::ParamReferenceToPointer);
    CHECK(canon(V.Type) == "float *const &");
  }
}

TEST_CASE("spans by reference are rejected", "[transfer][reject]") {
  // The suggestion is the span as written, without the reference and the
  // span's own const, but with the const of its elements.
  auto Spelled = [](QualType T) {
    return T.getAsString(ctx().getPrintingPolicy());
  };
  SECTION("std::span<T>&") {
    RuleViolation V = rejected("k_spanref", 0);
    CHECK(V.Id == DiagId::ParamSpanByReference);
    CHECK(Spelled(V.Suggestion) == "std::span<float>");
  }
  SECTION("const std::span<const T>&") {
    RuleViolation V = rejected("k_spanref", 1);
    CHECK(V.Id == DiagId::ParamSpanByReference);
    CHECK(Spelled(V.Suggestion) == "std::span<const float>");
  }
}

TEST_CASE("objects holding host addresses are rejected with the field path",
          "[transfer][reject][fields]") {
  auto Check = [](unsigned Index, llvm::StringRef Path, llvm::StringRef Record,
                  IndirectKind Kind) {
    RuleViolation V = rejected("k_fields", Index);
    CHECK(V.Id == DiagId::ParamIndirectField);
    CHECK(V.FieldPath == Path.str());
    CHECK(canon(V.Record) == Record.str());
    CHECK(V.Indirect == Kind);
    return V;
  };
  // A class parameter's pointer and reference fields are copied as bytes
  // (reading one in device code is the error: KernelBodyChecks).
  SECTION("pointers and references in a class parameter, at any depth") {
    CHECK(accepted("k_fields", 0).Row == RuleId::ByValue);
    CHECK(accepted("k_fields", 1).Row == RuleId::ConstRef);
    CHECK(accepted("k_fields", 2).Row == RuleId::MutRef);
    CHECK(accepted("k_fields", 3).Row == RuleId::ConstRef);
    CHECK(accepted("k_fields", 4).Row == RuleId::ByValue);
  }
  SECTION("a std::span member: the SpanFields row") {
    ParamRule R = accepted("k_fields", 5);
    CHECK(R.Row == RuleId::SpanFields);
    CHECK(R.Layout.Kind == PayloadKind::Aggregate);
    REQUIRE(R.Layout.Fields.size() == 1);
    CHECK(R.Layout.Fields[0].Map == MapKind::ToFrom);
    CHECK(R.Fields[0].Path == "S");
  }
  SECTION("a function pointer member") {
    Check(6, "F", "FnField", IndirectKind::FunctionPointer);
  }
  SECTION("a pointer to data member is an offset, and accepted") {
    CHECK(accepted("k_fields", 7).Row == RuleId::ByValue);
  }
  SECTION("the elements of a span") {
    Check(8, "Next", "Node", IndirectKind::Pointer);
  }
  SECTION("a span of spans names no field") {
    RuleViolation V = rejected("k_fields", 9);
    CHECK(V.Id == DiagId::ParamIndirectField);
    CHECK(V.FieldPath.empty());
    CHECK(V.Field == nullptr);
    CHECK(V.Indirect == IndirectKind::Span);
  }
  SECTION("the elements of a std::array") {
    Check(10, "Next", "Node", IndirectKind::Pointer);
  }
}

TEST_CASE("[[offload::out]] on a const parameter is rejected",
          "[transfer][reject][out]") {
  SECTION("const T&") {
    RuleViolation V = rejected("k_outconst", 0, /*IsOut=*/true);
    CHECK(V.Id == DiagId::OutOnConst);
    CHECK(canon(V.Type) == "const Pod &");
  }
  SECTION("const T(&)[N]: the const sits on the element type") {
    RuleViolation V = rejected("k_outconst", 1, /*IsOut=*/true);
    CHECK(V.Id == DiagId::OutOnConst);
  }
  SECTION("std::span<const T>") {
    RuleViolation V = rejected("k_outconst", 2, /*IsOut=*/true);
    CHECK(V.Id == DiagId::OutOnConst);
    CHECK(canon(V.Type).find("span<const float") != std::string::npos);
  }
  SECTION("const std::array<T, N>&") {
    RuleViolation V = rejected("k_outconst", 3, /*IsOut=*/true);
    CHECK(V.Id == DiagId::OutOnConst);
  }
  SECTION("the same parameters without the attribute are accepted") {
    CHECK(accepted("k_outconst", 0).Row == RuleId::ConstRef);
    CHECK(accepted("k_outconst", 1).Row == RuleId::ConstArrayRef);
    CHECK(accepted("k_outconst", 2).Row == RuleId::SpanConst);
    CHECK(accepted("k_outconst", 3).Row == RuleId::ConstStdArray);
  }
}

TEST_CASE("[[offload::out]] on a by-value parameter is rejected",
          "[transfer][reject][out]") {
  SECTION("scalar") {
    RuleViolation V = rejected("k_outbyvalue", 0, /*IsOut=*/true);
    CHECK(V.Id == DiagId::OutOnByValue);
    CHECK(canon(V.Type) == "int");
  }
  SECTION("struct") {
    CHECK(rejected("k_outbyvalue", 1, /*IsOut=*/true).Id ==
          DiagId::OutOnByValue);
  }
  SECTION("std::array by value is still a value") {
    CHECK(rejected("k_outbyvalue", 2, /*IsOut=*/true).Id ==
          DiagId::OutOnByValue);
    ParamRule R = accepted("k_outbyvalue", 2);
    CHECK(R.Row == RuleId::ByValue);
    CHECK(R.Layout.Bytes == 3 * sizeof(float));
  }
}

TEST_CASE("types whose copy is trivial are accepted in every form",
          "[transfer][row][vocabulary]") {
  const FunctionDecl &K = kernel("k_vocabulary");
  auto Row = [&](unsigned Index) {
    ParamRule R = accepted("k_vocabulary", Index);
    // The bytes are the object: all of it moves.
    QualType Object = K.getParamDecl(Index)->getType().getNonReferenceType();
    if (R.Layout.Kind != PayloadKind::Span)
      CHECK(R.Layout.Bytes ==
            uint64_t(ctx().getTypeSizeInChars(Object).getQuantity()));
    return R.Row;
  };
  SECTION("by value") {
    CHECK(Row(0) == RuleId::ByValue); // std::pair<int, float>
    CHECK(Row(1) == RuleId::ByValue); // std::tuple<int, float, double>
    CHECK(Row(2) == RuleId::ByValue); // std::optional<float>
    CHECK(Row(3) == RuleId::ByValue); // std::complex<double>
    CHECK(Row(4) == RuleId::ByValue); // user-provided operator=
  }
  SECTION("by reference") {
    CHECK(Row(5) == RuleId::ConstRef);
    CHECK(Row(6) == RuleId::MutRef);
    CHECK(Row(7) == RuleId::ConstRef);
    CHECK(Row(8) == RuleId::MutRef);
    CHECK(Row(13) == RuleId::MutRef);
    CHECK(Row(14) == RuleId::MutStdArray);
  }
  SECTION("as span elements") {
    CHECK(Row(9) == RuleId::SpanConst);
    CHECK(Row(10) == RuleId::SpanMut);
    CHECK(Row(11) == RuleId::SpanMut);
    CHECK(Row(12) == RuleId::SpanMut);
    ParamRule R = accepted("k_vocabulary", 10);
    CHECK(R.Layout.Bytes == sizeof(std::tuple<int, float, double>));
  }
  SECTION("they are not trivially copyable: the rule is the copy") {
    QualType Pair = K.getParamDecl(0)->getType();
    CHECK_FALSE(Pair.isTriviallyCopyableType(ctx()));
    CHECK_FALSE(K.getParamDecl(4)->getType().isTriviallyCopyableType(ctx()));
  }
}

TEST_CASE("types whose copy runs code, or that hold host addresses, are "
          "still rejected",
          "[transfer][reject][vocabulary]") {
  SECTION("a destructor with a body, by value, by const& and in a span") {
    CHECK(rejected("k_vocabulary_bad", 0).Id ==
          DiagId::ParamNotTriviallyCopyable);
    CHECK(rejected("k_vocabulary_bad", 1).Id ==
          DiagId::ParamNotTriviallyCopyable);
    CHECK(rejected("k_vocabulary_bad", 2).Id == DiagId::ParamSpanElement);
  }
  SECTION("a deleted copy constructor") {
    CHECK(rejected("k_vocabulary_bad", 3).Id ==
          DiagId::ParamNotTriviallyCopyable);
  }
  SECTION("a pointer inside a pair or a tuple") {
    RuleViolation V = rejected("k_vocabulary_bad", 4);
    CHECK(V.Id == DiagId::ParamIndirectField);
    CHECK(V.Indirect == IndirectKind::Pointer);
    CHECK(V.FieldPath == "second");
    V = rejected("k_vocabulary_bad", 5);
    CHECK(V.Id == DiagId::ParamIndirectField);
    CHECK(V.Indirect == IndirectKind::Pointer);
    CHECK(V.FieldPath.find("_M_head_impl") != std::string::npos);
  }
  SECTION("an optional of a type that is not") {
    CHECK(rejected("k_vocabulary_bad", 6).Id ==
          DiagId::ParamNotTriviallyCopyable);
  }
}

//===----------------------------------------------------------------------===//
// Kernel-level rules.
//===----------------------------------------------------------------------===//

TEST_CASE("checkKernelSignature", "[signature]") {
  SECTION("a void free function is fine") { CHECK(signature("k_ok") == "ok"); }
  SECTION("a static member function is fine") {
    CHECK(signature("Methods::staticMember") == "ok");
  }
  SECTION("non-void return") {
    CHECK(signature("k_returns") == "KernelReturnsValue");
  }
  SECTION("non-static member") {
    CHECK(signature("Methods::member") == "KernelIsMember");
  }
  SECTION("virtual, reported before member and return type") {
    CHECK(signature("Methods::virtualMember") == "KernelIsVirtual");
    CHECK(signature("Methods::virtualReturns") == "KernelIsVirtual");
  }
  SECTION("variadic") { CHECK(signature("k_variadic") == "KernelIsVariadic"); }
  SECTION("main") { CHECK(signature("main") == "KernelIsMain"); }
  SECTION("coroutine") {
    CHECK(signature("k_coroutine") == "KernelIsCoroutine");
  }
  SECTION("a dependent return type waits for the instantiation") {
    const FunctionDecl &FD = kernel("k_dependent");
    REQUIRE(FD.getReturnType()->isDependentType());
    CHECK_FALSE(checkKernelSignature(FD).has_value());
  }
}
