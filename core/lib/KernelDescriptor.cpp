//===- KernelDescriptor.cpp - type facts handed from the AST to IR --------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Encoding: `key=value` fields separated by ';', list items by ','; the three
// separators and '%' inside values are percent-escaped. A parameter is
// `<kind><map><bytes>.<count>.<dataoffset>.<countoffset>.<spanbytes>` (and
// `.<reduction>` for a reduction) with kind V/O/S and map l/t/b/f, e.g.
// `Sb4.0.0.8.16`. An aggregate (kind A) appends per span field
// `/<offset>:<map><bytes>.<count>.<dataoffset>.<countoffset>:<path>`, e.g.
// `Al32.0.0.0.0/0:t4.0.0.8:x/16:b8.0.0.8:grid.y` (a path is made of
// identifiers, '.', '[', ']' and ':', none of them a separator). A kernel's
// definition adds `bound=` (LaunchBound.cpp).
//
//===----------------------------------------------------------------------===//

#include "offload/Core/KernelDescriptor.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace offload {

static std::string escape(StringRef S) {
  std::string Out;
  for (char C : S) {
    if (C == ';' || C == '=' || C == ',' || C == '%' || C == '\n') {
      Out += '%';
      Out += hexdigit((C >> 4) & 0xF);
      Out += hexdigit(C & 0xF);
    } else {
      Out += C;
    }
  }
  return Out;
}

static Expected<std::string> unescape(StringRef S) {
  std::string Out;
  for (size_t I = 0; I < S.size(); ++I) {
    if (S[I] != '%') {
      Out += S[I];
      continue;
    }
    unsigned Hi, Lo;
    if (I + 2 >= S.size() || (Hi = hexDigitValue(S[I + 1])) == -1U ||
        (Lo = hexDigitValue(S[I + 2])) == -1U)
      return createStringError("bad escape in descriptor");
    Out += char(Hi << 4 | Lo);
    I += 2;
  }
  return Out;
}

static char kindChar(PayloadKind K) {
  switch (K) {
  case PayloadKind::Value:
    return 'V';
  case PayloadKind::Object:
    return 'O';
  case PayloadKind::Span:
    return 'S';
  case PayloadKind::Aggregate:
    return 'A';
  }
  llvm_unreachable("bad payload kind");
}

static char mapChar(MapKind M) {
  switch (M) {
  case MapKind::Literal:
    return 'l';
  case MapKind::To:
    return 't';
  case MapKind::ToFrom:
    return 'b';
  case MapKind::From:
    return 'f';
  }
  llvm_unreachable("bad map kind");
}

static void encodeKernelFields(raw_ostream &OS, const KernelDescriptor &K) {
  OS << "v1;name=" << escape(K.Name) << ";invoke=" << escape(K.InvokeThunk)
     << ";cpu=" << escape(K.CpuThunk) << ";params=";
  ListSeparator LS(",");
  for (const ParamLayout &P : K.Params) {
    // A scratch input is a To map the CPU paths copy: 's'.
    OS << LS << kindChar(P.Kind) << (P.Scratch ? 's' : mapChar(P.Map))
       << P.Bytes << '.' << P.Count << '.' << P.DataOffset << '.'
       << P.CountOffset << '.' << P.SpanBytes;
    // Written only for reductions: older descriptors stay valid.
    if (P.Reduce != ReduceKind::None)
      OS << '.' << unsigned(P.Reduce);
    for (const SpanField &F : P.Fields)
      OS << '/' << F.Offset << ':' << mapChar(F.Map) << F.Bytes << '.'
         << F.Count << '.' << F.DataOffset << '.' << F.CountOffset << ':'
         << F.Path;
  }
  if (K.Bound)
    OS << ";bound=" << encodeBound(*K.Bound);
}

std::string encodeKernel(const KernelDescriptor &K) {
  std::string S;
  raw_string_ostream OS(S);
  encodeKernelFields(OS, K);
  return S;
}

StringRef mapTypeName(MapKind M) {
  switch (M) {
  case MapKind::Literal:
    return "firstprivate";
  case MapKind::To:
    return "to";
  case MapKind::ToFrom:
    return "tofrom";
  case MapKind::From:
    return "from";
  }
  llvm_unreachable("bad map kind");
}

std::string encodeCallSite(const CallSiteDescriptor &C) {
  std::string S;
  raw_string_ostream OS(S);
  encodeKernelFields(OS, C.Kernel);
  OS << ";file=" << escape(C.File) << ";line=" << C.Line << ";col=" << C.Column
     << ";fn=" << escape(C.Function) << ";args=";
  ListSeparator LS(",");
  for (const std::string &A : C.ArgSpellings)
    OS << LS << escape(A);
  if (C.Group.Id) {
    // group=<id>.<opens><closes>.<held count>.<per parameter: 0 T F B>
    OS << ";group=" << C.Group.Id << '.' << unsigned(C.Group.Opens)
       << unsigned(C.Group.Closes) << '.' << C.Group.NumHeld << '.';
    for (MapKind M : C.Group.Held)
      OS << "0TBF"[unsigned(M)];
  }
  if (!C.LoopHolds.empty()) {
    // loop=<param>.<depth>.<T F B>,...
    OS << ";loop=";
    ListSeparator Holds(",");
    for (const LoopHoldSite &H : C.LoopHolds)
      OS << Holds << H.Param << '.' << H.Depth << '.'
         << "0TBF"[unsigned(H.Map)];
  }
  if (C.WarnedConstRegion)
    OS << ";cw=1";
  return S;
}

static Expected<LaunchGroup> decodeGroup(StringRef S) {
  LaunchGroup G;
  SmallVector<StringRef, 4> Parts;
  S.split(Parts, '.');
  if (Parts.size() != 4 || Parts[1].size() != 2 ||
      Parts[0].getAsInteger(10, G.Id) || G.Id == 0 ||
      Parts[2].getAsInteger(10, G.NumHeld))
    return createStringError("bad launch group '%s'", S.str().c_str());
  G.Opens = Parts[1][0] == '1';
  G.Closes = Parts[1][1] == '1';
  for (char C : Parts[3]) {
    size_t K = StringRef("0TBF").find(C);
    if (K == StringRef::npos)
      return createStringError("bad launch group '%s'", S.str().c_str());
    G.Held.push_back(MapKind(K));
  }
  return G;
}

static Expected<SmallVector<LoopHoldSite, 2>> decodeLoopHolds(StringRef S) {
  SmallVector<LoopHoldSite, 2> Holds;
  SmallVector<StringRef, 4> Items;
  S.split(Items, ',');
  for (StringRef Item : Items) {
    SmallVector<StringRef, 3> Parts;
    Item.split(Parts, '.');
    LoopHoldSite H;
    size_t K = Parts.size() == 3 && Parts[2].size() == 1
                   ? StringRef("0TBF").find(Parts[2][0])
                   : StringRef::npos;
    if (K == StringRef::npos || K == 0 || Parts[0].getAsInteger(10, H.Param) ||
        Parts[1].getAsInteger(10, H.Depth))
      return createStringError("bad loop hold '%s'", Item.str().c_str());
    H.Map = MapKind(K);
    Holds.push_back(H);
  }
  return Holds;
}

static Expected<MapKind> decodeMap(char C) {
  size_t K = StringRef("ltbf").find(C);
  if (K == StringRef::npos)
    return createStringError("bad map kind in descriptor");
  return MapKind(K);
}

/// `<offset>:<map><bytes>.<count>.<dataoffset>.<countoffset>:<path>`.
static Expected<SpanField> decodeField(StringRef S) {
  SpanField F;
  auto [Offset, Tail] = S.split(':');
  auto [Rest, Path] = Tail.split(':');
  F.Path = Path.str();
  SmallVector<StringRef, 4> Nums;
  if (!Rest.empty())
    Rest.drop_front().split(Nums, '.');
  if (Offset.getAsInteger(10, F.Offset) || Rest.empty() || Nums.size() != 4 ||
      Nums[0].getAsInteger(10, F.Bytes) || Nums[1].getAsInteger(10, F.Count) ||
      Nums[2].getAsInteger(10, F.DataOffset) ||
      Nums[3].getAsInteger(10, F.CountOffset))
    return createStringError("bad span field in descriptor: '%s'",
                             S.str().c_str());
  Expected<MapKind> M = decodeMap(Rest[0]);
  if (!M)
    return M.takeError();
  F.Map = *M;
  return F;
}

static Expected<ParamLayout> decodeParam(StringRef S) {
  ParamLayout P;
  SmallVector<StringRef, 4> FieldItems;
  S.split(FieldItems, '/');
  S = FieldItems[0];
  for (StringRef Item : ArrayRef(FieldItems).drop_front()) {
    Expected<SpanField> F = decodeField(Item);
    if (!F)
      return F.takeError();
    P.Fields.push_back(*F);
  }
  if (S.size() < 3)
    return createStringError("short parameter in descriptor: '%s'",
                             S.str().c_str());
  switch (S[0]) {
  case 'V':
    P.Kind = PayloadKind::Value;
    break;
  case 'O':
    P.Kind = PayloadKind::Object;
    break;
  case 'S':
    P.Kind = PayloadKind::Span;
    break;
  case 'A':
    P.Kind = PayloadKind::Aggregate;
    break;
  default:
    return createStringError("bad parameter kind in descriptor");
  }
  switch (S[1]) {
  case 'l':
    P.Map = MapKind::Literal;
    break;
  case 's':
    P.Scratch = true;
    [[fallthrough]];
  case 't':
    P.Map = MapKind::To;
    break;
  case 'b':
    P.Map = MapKind::ToFrom;
    break;
  case 'f':
    P.Map = MapKind::From;
    break;
  default:
    return createStringError("bad map kind in descriptor");
  }
  SmallVector<StringRef, 6> Nums;
  S.drop_front(2).split(Nums, '.');
  uint64_t V[6] = {};
  if (Nums.size() != 5 && Nums.size() != 6)
    return createStringError("parameter needs 5 or 6 numbers: '%s'",
                             S.str().c_str());
  for (unsigned I = 0; I < Nums.size(); ++I)
    if (Nums[I].getAsInteger(10, V[I]))
      return createStringError("bad number in parameter '%s'", S.str().c_str());
  P.Bytes = V[0];
  P.Count = V[1];
  P.DataOffset = V[2];
  P.CountOffset = V[3];
  P.SpanBytes = V[4];
  if (V[5] > unsigned(ReduceKind::Max))
    return createStringError("bad reduction in parameter '%s'",
                             S.str().c_str());
  P.Reduce = ReduceKind(V[5]);
  return P;
}

/// Splits `k=v;k=v` into a map and checks the version tag.
static Expected<StringMap<std::string>> fields(StringRef S) {
  StringMap<std::string> Out;
  SmallVector<StringRef, 12> Parts;
  S.split(Parts, ';');
  if (Parts.empty() || Parts[0] != "v1")
    return createStringError("not an offload descriptor (want 'v1;...')");
  for (StringRef Part : ArrayRef(Parts).drop_front()) {
    auto [Key, Value] = Part.split('=');
    Out[Key] = Value.str(); // unescaped later: lists split on raw ','
  }
  return Out;
}

static Error decodeKernelFields(StringMap<std::string> &F,
                                KernelDescriptor &K) {
  for (auto [Key, Out] : {std::pair<StringRef, std::string *>{"name", &K.Name},
                          {"invoke", &K.InvokeThunk},
                          {"cpu", &K.CpuThunk}}) {
    auto V = unescape(F.lookup(Key));
    if (!V)
      return V.takeError();
    *Out = *V;
  }
  if (F.count("bound")) {
    Expected<LaunchBound> B = decodeBound(F.lookup("bound"));
    if (!B)
      return B.takeError();
    K.Bound = std::move(*B);
  }
  // lookup() returns the value by copy: keep it alive while Items points in.
  std::string Params = F.lookup("params");
  if (Params.empty())
    return Error::success();
  SmallVector<StringRef, 8> Items;
  StringRef(Params).split(Items, ',');
  for (StringRef Item : Items) {
    auto P = decodeParam(Item);
    if (!P)
      return P.takeError();
    K.Params.push_back(*P);
  }
  return Error::success();
}

Expected<KernelDescriptor> decodeKernel(StringRef S) {
  auto F = fields(S);
  if (!F)
    return F.takeError();
  KernelDescriptor K;
  if (Error E = decodeKernelFields(*F, K))
    return std::move(E);
  return K;
}

Expected<CallSiteDescriptor> decodeCallSite(StringRef S) {
  auto F = fields(S);
  if (!F)
    return F.takeError();
  CallSiteDescriptor C;
  if (Error E = decodeKernelFields(*F, C.Kernel))
    return std::move(E);
  auto File = unescape(F->lookup("file"));
  auto Fn = unescape(F->lookup("fn"));
  if (!File)
    return File.takeError();
  if (!Fn)
    return Fn.takeError();
  C.File = *File;
  C.Function = *Fn;
  if (StringRef(F->lookup("line")).getAsInteger(10, C.Line) ||
      StringRef(F->lookup("col")).getAsInteger(10, C.Column))
    return createStringError("call-site descriptor without line/column");
  std::string Args = F->lookup("args"); // a copy, as for "params"
  if (!Args.empty()) {
    SmallVector<StringRef, 8> Items;
    StringRef(Args).split(Items, ',');
    for (StringRef Item : Items) {
      auto A = unescape(Item);
      if (!A)
        return A.takeError();
      C.ArgSpellings.push_back(*A);
    }
  }
  C.WarnedConstRegion = F->lookup("cw") == "1";
  if (std::string G = F->lookup("group"); !G.empty()) {
    auto Group = decodeGroup(G);
    if (!Group)
      return Group.takeError();
    C.Group = std::move(*Group);
  }
  if (std::string L = F->lookup("loop"); !L.empty()) {
    auto Holds = decodeLoopHolds(L);
    if (!Holds)
      return Holds.takeError();
    C.LoopHolds = std::move(*Holds);
  }
  return C;
}

} // namespace offload
