//===- KernelDescriptorTest.cpp - unit tests of the descriptor strings ----===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The plugin writes kernel and call-site descriptors into IR strings and the
// IR passes read them back without an AST: every field must survive the trip,
// separators inside names included, the launch bound that sets the default
// launch shape too, and a damaged string must be refused.
//
//===----------------------------------------------------------------------===//

#include "offload/Core/KernelDescriptor.h"
#include "Printers.h"

#include "llvm/Support/Error.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>

using namespace offload;

namespace {

/// Unwraps a decode that must succeed; the error text is the failure message.
template <class T> T expectOk(llvm::Expected<T> E) {
  if (!E)
    FAIL("decode failed: " << llvm::toString(E.takeError()));
  return std::move(*E);
}

/// The message of a decode that must fail.
template <class T> std::string expectError(llvm::Expected<T> E) {
  if (E)
    FAIL("decode unexpectedly succeeded");
  return llvm::toString(E.takeError());
}

ParamLayout layout(PayloadKind K, MapKind M, uint64_t Bytes, uint64_t Count,
                   uint64_t Data, uint64_t CountOff, uint64_t SpanBytes) {
  ParamLayout P;
  P.Kind = K;
  P.Map = M;
  P.Bytes = Bytes;
  P.Count = Count;
  P.DataOffset = Data;
  P.CountOffset = CountOff;
  P.SpanBytes = SpanBytes;
  return P;
}

/// Every field distinct from its neighbours, so a swapped field is caught.
KernelDescriptor sampleKernel() {
  KernelDescriptor K;
  K.Name = "ns::scale<a;b=c,d%e>";
  K.InvokeThunk = "_ZN6__ofld6invokeIJfEEEvPv;x=1";
  K.CpuThunk = "_ZN6__ofld8cpu_gridIJfEEEvPv,%20";
  K.Params.push_back(
      layout(PayloadKind::Value, MapKind::Literal, 4, 0, 0, 0, 0));
  K.Params.push_back(layout(PayloadKind::Object, MapKind::To, 24, 6, 0, 0, 0));
  K.Params.push_back(
      layout(PayloadKind::Span, MapKind::ToFrom, 8, 0, 1, 9, 16));
  K.Params.push_back(layout(PayloadKind::Span, MapKind::From, 2, 3, 5, 7, 11));
  return K;
}

void checkSameParams(const KernelDescriptor &A, const KernelDescriptor &B) {
  REQUIRE(A.Params.size() == B.Params.size());
  for (unsigned I = 0; I < A.Params.size(); ++I) {
    INFO("param " << I);
    const ParamLayout &P = A.Params[I], &Q = B.Params[I];
    CHECK(P.Kind == Q.Kind);
    CHECK(P.Map == Q.Map);
    CHECK(P.Bytes == Q.Bytes);
    CHECK(P.Count == Q.Count);
    CHECK(P.DataOffset == Q.DataOffset);
    CHECK(P.CountOffset == Q.CountOffset);
    CHECK(P.SpanBytes == Q.SpanBytes);
    CHECK(P.Reduce == Q.Reduce);
  }
}

/// A valid kernel descriptor with `Params` spliced in verbatim.
std::string withParams(llvm::StringRef Params) {
  return "v1;name=k;invoke=i;cpu=;params=" + Params.str();
}

// Bound terms in prefix order, as LaunchBound.h lists them.
BoundTerm constant(int64_t C) {
  BoundTerm T;
  T.Constant = C;
  return T;
}

BoundTerm value(unsigned Param, uint64_t Offset, uint8_t Bytes, bool Signed,
                std::string Field = "") {
  BoundTerm T;
  T.Op = BoundTerm::Value;
  T.Param = Param;
  T.Offset = Offset;
  T.Bytes = Bytes;
  T.Signed = Signed;
  T.Field = std::move(Field);
  return T;
}

BoundTerm count(unsigned Param) {
  BoundTerm T;
  T.Op = BoundTerm::Count;
  T.Param = Param;
  return T;
}

BoundTerm op(BoundTerm::Kind K) {
  BoundTerm T;
  T.Op = K;
  return T;
}

DimBound bounded(std::initializer_list<BoundTerm> Terms) {
  DimBound D;
  D.S = DimBound::Bounded;
  D.Terms.assign(Terms.begin(), Terms.end());
  return D;
}

DimBound unknown() {
  DimBound D;
  D.S = DimBound::Unknown;
  return D;
}

LaunchBound bound(DimBound X, DimBound Y = {}, DimBound Z = {}) {
  LaunchBound B;
  B.Dims[0] = std::move(X);
  B.Dims[1] = std::move(Y);
  B.Dims[2] = std::move(Z);
  return B;
}

/// Every operator and every kind of operand, fields with dots included:
/// max(w.dims.x / 4, -3 + v.size()) | v.size() - 1 | p.a.b * min(n, 7).
LaunchBound sampleBound() {
  using K = BoundTerm;
  return bound(
      bounded({op(K::Max), op(K::Div), value(2, 8, 8, false, ".dims.x"),
               constant(4), op(K::Add), constant(-3), count(0)}),
      bounded({op(K::Sub), count(1), constant(1)}),
      bounded({op(K::Mul), value(3, 4, 1, false, ".a.b"), op(K::Min),
               value(1, 0, 2, true), constant(7)}));
}

} // namespace

TEST_CASE("encodeKernel writes the documented parameter format",
          "[descriptor]") {
  KernelDescriptor K;
  K.Name = "k";
  K.Params.push_back(
      layout(PayloadKind::Span, MapKind::ToFrom, 4, 0, 0, 8, 16));
  K.Params.push_back(
      layout(PayloadKind::Object, MapKind::From, 12, 3, 0, 0, 0));
  K.Params.push_back(
      layout(PayloadKind::Value, MapKind::Literal, 8, 0, 0, 0, 0));
  K.Params.push_back(layout(PayloadKind::Object, MapKind::To, 16, 0, 0, 0, 0));
  // The example of KernelDescriptor.cpp's header, then one of each letter.
  CHECK(encodeKernel(K) ==
        "v1;name=k;invoke=;cpu=;params=Sb4.0.0.8.16,Of12.3.0.0.0,"
        "Vl8.0.0.0.0,Ot16.0.0.0.0");
}

TEST_CASE("encodeKernel escapes the separators inside names", "[descriptor]") {
  KernelDescriptor K;
  K.Name = "a;b=c,d%e\nf";
  std::string S = encodeKernel(K);
  CHECK(S.find("name=a%3Bb%3Dc%2Cd%25e%0Af;") != std::string::npos);
  // Only the structural separators remain: v1;name;invoke;cpu;params.
  CHECK(std::count(S.begin(), S.end(), ';') == 4);
  CHECK(std::count(S.begin(), S.end(), '=') == 4);
  CHECK(std::count(S.begin(), S.end(), ',') == 0);
}

TEST_CASE("launch bounds: the documented encoding", "[descriptor][bound]") {
  using K = BoundTerm;
  CHECK(encodeBound(LaunchBound()) == "-|-|-");
  CHECK(encodeBound(bound(unknown())) == "?|-|-");
  CHECK(encodeBound(bound({}, {}, unknown())) == "-|-|?");
  CHECK(encodeBound(bound(bounded({count(0)}))) == "n0|-|-");
  // An integer argument: no field, so the term ends with its ':'.
  CHECK(encodeBound(
            bound(bounded({op(K::Min), count(1), value(0, 0, 4, true)}))) ==
        "m n1 v0:0:4:s:|-|-");
  CHECK(encodeBound(sampleBound()) ==
        "M / v2:8:8:u:.dims.x c4 + c-3 n0|- n1 c1|"
        "* v3:4:1:u:.a.b m v1:0:2:s: c7");
}

TEST_CASE("launch bounds round-trip", "[descriptor][bound]") {
  using K = BoundTerm;
  SECTION("each state and each term alone") {
    for (const LaunchBound &B :
         {LaunchBound(), bound(unknown(), unknown(), unknown()),
          bound(bounded({constant(0)})), bound(bounded({constant(-42)})),
          bound({}, bounded({count(3)})),
          bound({}, {}, bounded({value(5, 16, 1, true)})),
          bound(bounded({value(0, 24, 8, false, ".cfg.n")}), unknown()),
          bound(bounded({op(K::Max), count(0), count(1)}),
                bounded({op(K::Div), count(0), constant(0)}))}) {
      INFO(encodeBound(B));
      CHECK(expectOk(decodeBound(encodeBound(B))) == B);
    }
  }
  SECTION("every operator, nested") {
    LaunchBound B = sampleBound();
    LaunchBound D = expectOk(decodeBound(encodeBound(B)));
    CHECK(D == B);
    REQUIRE(D.Dims[0].Terms.size() == 7);
    const BoundTerm &W = D.Dims[0].Terms[2];
    CHECK(W.Op == K::Value);
    CHECK(W.Param == 2);
    CHECK(W.Offset == 8);
    CHECK(W.Bytes == 8);
    CHECK_FALSE(W.Signed);
    CHECK(W.Field == ".dims.x");
    CHECK(D.Dims[0].Terms[5].Constant == -3);
  }
  SECTION("'-' alone is an unindexed dimension, with operands a subtraction") {
    LaunchBound D = expectOk(decodeBound("- c5 c2|-|?"));
    CHECK(D.Dims[0] == bounded({op(K::Sub), constant(5), constant(2)}));
    CHECK(D.Dims[1].S == DimBound::Unindexed);
    CHECK(D.Dims[2].S == DimBound::Unknown);
    CHECK(D.readsIndex());
    CHECK(D.lacksBound());
  }
  SECTION("readsIndex and lacksBound") {
    CHECK_FALSE(LaunchBound().readsIndex());
    CHECK_FALSE(LaunchBound().lacksBound());
    CHECK(bound({}, {}, bounded({count(0)})).readsIndex());
    CHECK_FALSE(bound({}, {}, bounded({count(0)})).lacksBound());
    CHECK(bound(bounded({count(0)}), unknown()).lacksBound());
  }
  SECTION("in a kernel descriptor, after the parameters") {
    KernelDescriptor K = sampleKernel();
    K.Bound = sampleBound();
    std::string S = encodeKernel(K);
    CHECK_THAT(S, Catch::EndsWith(";bound=" + encodeBound(sampleBound())));
    // The bound needs no escapes: it uses no separator of the descriptor.
    CHECK(std::count(S.begin(), S.end(), ';') == 5);
    KernelDescriptor D = expectOk(decodeKernel(S));
    checkSameParams(D, K);
    REQUIRE(D.Bound.has_value());
    CHECK(*D.Bound == *K.Bound);
  }
  SECTION("in a call-site descriptor") {
    CallSiteDescriptor C;
    C.Kernel = sampleKernel();
    C.Kernel.Bound = bound(unknown());
    C.File = "f.cpp";
    C.Line = 1;
    C.Column = 2;
    C.ArgSpellings = {"v", "n|m"};
    CallSiteDescriptor D = expectOk(decodeCallSite(encodeCallSite(C)));
    REQUIRE(D.Kernel.Bound.has_value());
    CHECK(*D.Kernel.Bound == *C.Kernel.Bound);
    CHECK(D.ArgSpellings[1] == "n|m");
  }
}

TEST_CASE("kernel descriptors round-trip", "[descriptor]") {
  SECTION("names with ';', '=', ',' and '%'") {
    KernelDescriptor K = sampleKernel();
    KernelDescriptor D = expectOk(decodeKernel(encodeKernel(K)));
    CHECK(D.Name == K.Name);
    CHECK(D.InvokeThunk == K.InvokeThunk);
    CHECK(D.CpuThunk == K.CpuThunk);
    checkSameParams(D, K);
    // No body was read: no bound written, none decoded.
    CHECK(encodeKernel(K).find(";bound=") == std::string::npos);
    CHECK_FALSE(D.Bound.has_value());
  }
  SECTION("no parameters") {
    KernelDescriptor K;
    K.Name = "empty";
    KernelDescriptor D = expectOk(decodeKernel(encodeKernel(K)));
    CHECK(D.Name == "empty");
    CHECK(D.Params.empty());
  }
  SECTION("reductions: the sixth number, written only for them") {
    KernelDescriptor K;
    K.Name = "reduce";
    for (ReduceKind R : {ReduceKind::None, ReduceKind::Sum, ReduceKind::Min,
                         ReduceKind::Max}) {
      ParamLayout P =
          layout(PayloadKind::Object, MapKind::ToFrom, 8, 0, 0, 0, 0);
      P.Reduce = R;
      K.Params.push_back(P);
    }
    std::string Text = encodeKernel(K);
    CHECK_THAT(Text, Catch::Contains("Ob8.0.0.0.0,Ob8.0.0.0.0.1,"
                                     "Ob8.0.0.0.0.2,Ob8.0.0.0.0.3"));
    KernelDescriptor D = expectOk(decodeKernel(Text));
    REQUIRE(D.Params.size() == 4);
    for (unsigned I = 0; I < 4; ++I)
      CHECK(D.Params[I].Reduce == K.Params[I].Reduce);
  }
  SECTION("[[offload::in]]: a To map written 's'") {
    KernelDescriptor K;
    K.Name = "scratch";
    ParamLayout P = layout(PayloadKind::Span, MapKind::To, 4, 0, 0, 8, 16);
    P.Scratch = true;
    K.Params.push_back(P);
    K.Params.push_back(layout(PayloadKind::Span, MapKind::To, 4, 0, 0, 8, 16));
    std::string Text = encodeKernel(K);
    CHECK_THAT(Text, Catch::Contains("Ss4.0.0.8.16,St4.0.0.8.16"));
    KernelDescriptor D = expectOk(decodeKernel(Text));
    REQUIRE(D.Params.size() == 2);
    CHECK(D.Params[0].Map == MapKind::To);
    CHECK(D.Params[0].Scratch);
    CHECK_FALSE(D.Params[1].Scratch);
  }
  SECTION("many parameters: a long list must decode as written") {
    KernelDescriptor K;
    K.Name = "wide";
    for (unsigned I = 0; I < 40; ++I)
      K.Params.push_back(layout(PayloadKind::Span, MapKind::To, I + 1, 1000 + I,
                                I, 8 + I, 16 + I));
    KernelDescriptor D = expectOk(decodeKernel(encodeKernel(K)));
    checkSameParams(D, K);
  }
}

TEST_CASE("call-site descriptors round-trip", "[descriptor]") {
  CallSiteDescriptor C;
  C.Kernel = sampleKernel();
  C.File = "/src/dir;with=odd,chars%/main.cpp";
  C.Function = "int main(int, char **), lambda=1;";
  C.Line = 4242;
  C.Column = 17;
  C.ArgSpellings = {"std::span<float>{v.data(), n}", "a,b", "x=y;z", "100%",
                    "std::array<int, 2>{1, 2}"};
  CallSiteDescriptor D = expectOk(decodeCallSite(encodeCallSite(C)));
  CHECK(D.Kernel.Name == C.Kernel.Name);
  CHECK(D.Kernel.InvokeThunk == C.Kernel.InvokeThunk);
  CHECK(D.Kernel.CpuThunk == C.Kernel.CpuThunk);
  checkSameParams(D.Kernel, C.Kernel);
  CHECK(D.File == C.File);
  CHECK(D.Function == C.Function);
  CHECK(D.Line == 4242);
  CHECK(D.Column == 17);
  REQUIRE(D.ArgSpellings.size() == C.ArgSpellings.size());
  for (unsigned I = 0; I < C.ArgSpellings.size(); ++I)
    CHECK(D.ArgSpellings[I] == C.ArgSpellings[I]);

  SECTION("a call-site string is also a kernel descriptor") {
    KernelDescriptor K = expectOk(decodeKernel(encodeCallSite(C)));
    CHECK(K.Name == C.Kernel.Name);
    checkSameParams(K, C.Kernel);
  }
}

TEST_CASE("launch groups round-trip", "[descriptor][groups]") {
  CallSiteDescriptor C;
  C.Kernel = sampleKernel();
  C.File = "f.cpp";
  C.Line = 3;
  C.Column = 5;
  SECTION("a call outside any group says nothing about groups") {
    CHECK(encodeCallSite(C).find("group=") == std::string::npos);
    CHECK(expectOk(decodeCallSite(encodeCallSite(C))).Group.Id == 0);
  }
  SECTION("the opening call carries what it holds") {
    C.Group.Id = 7;
    C.Group.Opens = true;
    C.Group.NumHeld = 3;
    C.Group.Held = {MapKind::Literal, MapKind::To, MapKind::ToFrom,
                    MapKind::From};
    LaunchGroup G = expectOk(decodeCallSite(encodeCallSite(C))).Group;
    CHECK(G.Id == 7);
    CHECK(G.Opens);
    CHECK_FALSE(G.Closes);
    CHECK(G.NumHeld == 3);
    CHECK(G.Held == C.Group.Held);
  }
  SECTION("the closing call only names the group") {
    C.Group.Id = 2;
    C.Group.Closes = true;
    C.Group.NumHeld = 1;
    LaunchGroup G = expectOk(decodeCallSite(encodeCallSite(C))).Group;
    CHECK(G.Id == 2);
    CHECK_FALSE(G.Opens);
    CHECK(G.Closes);
    CHECK(G.Held.empty());
  }
  SECTION("a malformed group is refused") {
    std::string S = encodeCallSite(C);
    for (const char *Bad :
         {";group=0.10.1.T", ";group=3.1.1.T", ";group=3.10.x.T",
          ";group=3.10.1.Q", ";group=3.10"})
      CHECK_THAT(expectError(decodeCallSite(S + Bad)),
                 Catch::Matchers::Contains("bad launch group"));
  }
}

TEST_CASE("malformed descriptors are refused", "[descriptor][errors]") {
  SECTION("wrong version") {
    std::string S = encodeKernel(sampleKernel());
    REQUIRE(S.rfind("v1;", 0) == 0);
    S[1] = '2';
    CHECK_THAT(expectError(decodeKernel(S)),
               Catch::Contains("not an offload descriptor"));
    CHECK_THAT(expectError(decodeCallSite(S)),
               Catch::Contains("not an offload descriptor"));
  }
  SECTION("empty string") {
    CHECK_THAT(expectError(decodeKernel("")),
               Catch::Contains("not an offload descriptor"));
  }
  SECTION("bad kind character") {
    CHECK_THAT(expectError(decodeKernel(withParams("Xb4.0.0.8.16"))),
               Catch::Contains("bad parameter kind"));
    // Lower case is the map alphabet, not the kind alphabet.
    CHECK_THAT(expectError(decodeKernel(withParams("sb4.0.0.8.16"))),
               Catch::Contains("bad parameter kind"));
  }
  SECTION("bad map character") {
    CHECK_THAT(expectError(decodeKernel(withParams("Sx4.0.0.8.16"))),
               Catch::Contains("bad map kind"));
  }
  SECTION("wrong number count") {
    CHECK_THAT(expectError(decodeKernel(withParams("Sb4.0.0.8"))),
               Catch::Contains("needs 5 or 6 numbers"));
    // The old format's array-like flag plus a reduction: one too many.
    CHECK_THAT(expectError(decodeKernel(withParams("Sb4.0.0.8.16.1.3"))),
               Catch::Contains("needs 5 or 6 numbers"));
    // A bad item after a good one still fails the whole descriptor.
    CHECK_THAT(expectError(decodeKernel(withParams("Vl4.0.0.0.0,Ot8.0.0"))),
               Catch::Contains("needs 5 or 6 numbers"));
  }
  SECTION("bad reduction") {
    // The sixth number is a ReduceKind: 1 sum, 2 min, 3 max.
    CHECK_THAT(expectError(decodeKernel(withParams("Ob8.0.0.0.0.7"))),
               Catch::Contains("bad reduction"));
  }
  SECTION("truncated parameter") {
    CHECK_THAT(expectError(decodeKernel(withParams("Sb"))),
               Catch::Contains("short parameter"));
  }
  SECTION("not a number") {
    CHECK_THAT(expectError(decodeKernel(withParams("Sb4.x.0.8.16"))),
               Catch::Contains("bad number"));
    CHECK_THAT(expectError(decodeKernel(withParams("Sb4.-1.0.8.16"))),
               Catch::Contains("bad number"));
    CHECK_THAT(expectError(decodeKernel(withParams("Sb4..0.8.16"))),
               Catch::Contains("bad number"));
  }
  SECTION("bad escapes") {
    CHECK_THAT(expectError(decodeKernel("v1;name=a%3")),
               Catch::Contains("bad escape"));
    CHECK_THAT(expectError(decodeKernel("v1;name=a%zz")),
               Catch::Contains("bad escape"));
    CHECK_THAT(expectError(decodeKernel("v1;name=k;invoke=%")),
               Catch::Contains("bad escape"));
    // The same escapes decode when complete: the check is not over-eager.
    CHECK(expectOk(decodeKernel("v1;name=a%3B")).Name == "a;");
    CHECK(expectOk(decodeKernel("v1;name=a%3b%25")).Name == "a;%");
  }
  SECTION("call site without line or column") {
    std::string K = encodeKernel(sampleKernel());
    CHECK_THAT(expectError(decodeCallSite(K + ";file=f;col=3;fn=g;args=")),
               Catch::Contains("without line/column"));
    CHECK_THAT(expectError(decodeCallSite(K + ";file=f;line=3;fn=g;args=")),
               Catch::Contains("without line/column"));
    CHECK_THAT(
        expectError(decodeCallSite(K + ";file=f;line=x;col=3;fn=g;args=")),
        Catch::Contains("without line/column"));
    CallSiteDescriptor C =
        expectOk(decodeCallSite(K + ";file=f;line=9;col=3;fn=g;args="));
    CHECK(C.Line == 9);
    CHECK(C.Column == 3);
    CHECK(C.ArgSpellings.empty());
  }
  SECTION("bad escape in a call-site field") {
    std::string K = encodeKernel(sampleKernel());
    CHECK_THAT(
        expectError(decodeCallSite(K + ";file=f%;line=1;col=1;fn=g;args=")),
        Catch::Contains("bad escape"));
    CHECK_THAT(
        expectError(decodeCallSite(K + ";file=f;line=1;col=1;fn=g;args=a,%q")),
        Catch::Contains("bad escape"));
  }
}

TEST_CASE("malformed bounds are refused", "[descriptor][bound][errors]") {
  auto Error = [](llvm::StringRef S) { return expectError(decodeBound(S)); };
  SECTION("bad token") {
    for (const char *Bad :
         {"x1|-|-", "c|-|-", "cx|-|-", "n|-|-", "n-1|-|-", "++ c1 c2|-|-",
          "v0:0:3:s:|-|-", "v0:0:4:x:|-|-", "v0:0:4:s|-|-", "v0:0:4|-|-",
          "va:0:4:s:|-|-", "-|?|!"}) {
      INFO(Bad);
      CHECK_THAT(Error(Bad), Catch::Contains("bad bound term"));
    }
  }
  SECTION("incomplete expression") {
    CHECK_THAT(Error("+ c1|-|-"), Catch::Contains("incomplete bound '+ c1'"));
    CHECK_THAT(Error("-|m n0|-"), Catch::Contains("incomplete bound 'm n0'"));
    CHECK_THAT(Error("* + c1 c2|-|-"), Catch::Contains("incomplete bound"));
  }
  SECTION("extra operand") {
    CHECK_THAT(Error("c1 c2|-|-"), Catch::Contains("bad bound 'c1 c2'"));
    CHECK_THAT(Error("-|-|+ c1 c2 n0"), Catch::Contains("bad bound"));
  }
  SECTION("empty dimension or term") {
    CHECK_THAT(Error("|-|-"), Catch::Contains("bad bound"));
    CHECK_THAT(Error("+ c1  c2|-|-"), Catch::Contains("bad bound"));
  }
  SECTION("wrong number of dimensions") {
    CHECK_THAT(Error("c1|-"), Catch::Contains("bad bound 'c1|-'"));
    CHECK_THAT(Error("-|-|-|-"), Catch::Contains("bad bound"));
    CHECK_THAT(Error("n0"), Catch::Contains("bad bound"));
    CHECK_THAT(Error(""), Catch::Contains("bad bound"));
  }
  SECTION("a bad bound fails the whole descriptor") {
    std::string K = withParams("Vl4.0.0.0.0") + ";bound=+ c1|-|-";
    CHECK_THAT(expectError(decodeKernel(K)),
               Catch::Contains("incomplete bound"));
    CHECK_THAT(
        expectError(decodeCallSite(K + ";file=f;line=1;col=1;fn=g;args=")),
        Catch::Contains("incomplete bound"));
    CHECK(expectOk(decodeKernel(withParams("Vl4.0.0.0.0") + ";bound=-|-|-"))
              .Bound == LaunchBound());
  }
}
