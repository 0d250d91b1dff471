//===- LaunchBound.cpp - bound terms: encoding and spelling ---------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Encoding: the three dimensions separated by '|'; a dimension is `-`
// (unindexed), `?` (no bound) or its terms separated by ' ': `c<int>`,
// `n<param>`, `v<param>:<offset>:<bytes>:<s|u>:<field>`, and `+ - * / m M`
// (min, max). The descriptor escapes none of these characters.
//
//===----------------------------------------------------------------------===//

#include "offload/Core/LaunchBound.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace offload {

bool LaunchBound::readsIndex() const {
  for (const DimBound &D : Dims)
    if (D.S != DimBound::Unindexed)
      return true;
  return false;
}

bool LaunchBound::lacksBound() const {
  for (const DimBound &D : Dims)
    if (D.S == DimBound::Unknown)
      return true;
  return false;
}

namespace {

constexpr StringLiteral OpChars = "+-*/mM";

bool isOperator(BoundTerm::Kind K) { return K >= BoundTerm::Add; }

char opChar(BoundTerm::Kind K) { return OpChars[K - BoundTerm::Add]; }

} // namespace

std::string encodeBound(const LaunchBound &B) {
  std::string S;
  raw_string_ostream OS(S);
  ListSeparator Dims("|");
  for (const DimBound &D : B.Dims) {
    OS << Dims;
    if (D.S != DimBound::Bounded) {
      OS << (D.S == DimBound::Unindexed ? '-' : '?');
      continue;
    }
    ListSeparator Sp(" ");
    for (const BoundTerm &T : D.Terms) {
      OS << Sp;
      switch (T.Op) {
      case BoundTerm::Const:
        OS << 'c' << T.Constant;
        break;
      case BoundTerm::Count:
        OS << 'n' << T.Param;
        break;
      case BoundTerm::Value:
        OS << 'v' << T.Param << ':' << T.Offset << ':' << unsigned(T.Bytes)
           << ':' << (T.Signed ? 's' : 'u') << ':' << T.Field;
        break;
      default:
        OS << opChar(T.Op);
      }
    }
  }
  return S;
}

/// The terms of one dimension, checked to form one whole expression.
static Expected<DimBound> decodeDim(StringRef S) {
  DimBound D;
  if (S == "-")
    return D;
  if (S == "?") {
    D.S = DimBound::Unknown;
    return D;
  }
  D.S = DimBound::Bounded;
  int Needed = 1; // operands still to come
  SmallVector<StringRef, 8> Tokens;
  S.split(Tokens, ' ');
  for (StringRef Tok : Tokens) {
    if (Needed <= 0 || Tok.empty())
      return createStringError("bad bound '%s'", S.str().c_str());
    BoundTerm T;
    char C = Tok.front();
    StringRef Rest = Tok.drop_front();
    if (size_t Op = OpChars.find(C); Op != StringRef::npos && Rest.empty()) {
      T.Op = BoundTerm::Kind(BoundTerm::Add + Op);
      ++Needed;
    } else if (C == 'c' && !Rest.getAsInteger(10, T.Constant)) {
      T.Op = BoundTerm::Const;
      --Needed;
    } else if (C == 'n' && !Rest.getAsInteger(10, T.Param)) {
      T.Op = BoundTerm::Count;
      --Needed;
    } else if (C == 'v') {
      SmallVector<StringRef, 5> F;
      Rest.split(F, ':');
      unsigned Bytes;
      if (F.size() != 5 || F[0].getAsInteger(10, T.Param) ||
          F[1].getAsInteger(10, T.Offset) || F[2].getAsInteger(10, Bytes) ||
          (Bytes != 1 && Bytes != 2 && Bytes != 4 && Bytes != 8) ||
          (F[3] != "s" && F[3] != "u"))
        return createStringError("bad bound term '%s'", Tok.str().c_str());
      T.Op = BoundTerm::Value;
      T.Bytes = uint8_t(Bytes);
      T.Signed = F[3] == "s";
      T.Field = F[4].str();
      --Needed;
    } else {
      return createStringError("bad bound term '%s'", Tok.str().c_str());
    }
    D.Terms.push_back(std::move(T));
  }
  if (Needed != 0)
    return createStringError("incomplete bound '%s'", S.str().c_str());
  return D;
}

Expected<LaunchBound> decodeBound(StringRef S) {
  SmallVector<StringRef, 3> Parts;
  S.split(Parts, '|');
  if (Parts.size() != 3)
    return createStringError("bad bound '%s'", S.str().c_str());
  LaunchBound B;
  for (auto [I, P] : enumerate(Parts)) {
    Expected<DimBound> D = decodeDim(P);
    if (!D)
      return D.takeError();
    B.Dims[I] = std::move(*D);
  }
  return B;
}

/// Spells the expression starting at Terms[I], advancing I past it.
static std::string render(ArrayRef<BoundTerm> Terms, size_t &I,
                          ArrayRef<std::string> Param, BoundStyle Style) {
  const BoundTerm &T = Terms[I++];
  bool Code = Style == BoundStyle::Code;
  auto Name = [&](unsigned P) {
    return P < Param.size() ? Param[P] : "arg" + utostr(P);
  };
  switch (T.Op) {
  case BoundTerm::Const:
    return itostr(T.Constant) + (Code ? "LL" : "");
  case BoundTerm::Count:
    return Code ? "(long long)" + Name(T.Param) + ".size()"
                : Name(T.Param) + ".size()";
  case BoundTerm::Value:
    return Code ? "(long long)(" + Name(T.Param) + T.Field + ")"
                : Name(T.Param) + T.Field;
  default:
    break;
  }
  std::string L = render(Terms, I, Param, Style);
  std::string R = render(Terms, I, Param, Style);
  switch (T.Op) {
  case BoundTerm::Div:
    if (Code)
      return "ofld::detail::bound_div(" + L + ", " + R + ")";
    break;
  case BoundTerm::Min:
  case BoundTerm::Max: {
    const char *F = T.Op == BoundTerm::Min ? "min" : "max";
    return (Code ? "ofld::detail::bound_" : "") + std::string(F) + "(" + L +
           ", " + R + ")";
  }
  default:
    break;
  }
  return "(" + L + " " + opChar(T.Op) + " " + R + ")";
}

std::string renderExtent(const DimBound &D, ArrayRef<std::string> Param,
                         BoundStyle Style) {
  if (D.S != DimBound::Bounded)
    return D.S == DimBound::Unindexed ? "ofld::detail::extent_unindexed"
                                      : "ofld::detail::extent_unknown";
  size_t I = 0;
  std::string S = render(D.Terms, I, Param, Style);
  // The outermost parentheses say nothing to a reader.
  if (Style == BoundStyle::Words && S.size() > 2 && S.front() == '(' &&
      S.back() == ')' && isOperator(D.Terms.front().Op) &&
      D.Terms.front().Op != BoundTerm::Min &&
      D.Terms.front().Op != BoundTerm::Max)
    S = S.substr(1, S.size() - 2);
  return S;
}

std::string describeBound(const LaunchBound &B, ArrayRef<std::string> Param) {
  if (!B.readsIndex())
    return "one thread (the kernel reads no thread index)";
  for (auto [I, D] : enumerate(B.Dims))
    if (D.S == DimBound::Unknown)
      return "none: the kernel reads ofld::global_id(" + utostr(I) +
             ") with no bounds check a call can compute; give the grid";
  unsigned Rank = 0;
  for (unsigned I = 0; I < 3; ++I)
    if (B.Dims[I].S != DimBound::Unindexed)
      Rank = I + 1;
  if (Rank == 1)
    return "one thread per " +
           renderExtent(B.Dims[0], Param, BoundStyle::Words);
  std::string S = "one thread per (";
  for (unsigned I = 0; I < Rank; ++I)
    S += (I ? ", " : "") +
         (B.Dims[I].S == DimBound::Unindexed
              ? std::string("1")
              : renderExtent(B.Dims[I], Param, BoundStyle::Words));
  return S + ")";
}

} // namespace offload
