//===- Printers.h - readable Catch2 output for analysis enums ---*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Catch2 prints an enum class as its underlying number; a failing check that
// says `ParamRawPointer == ParamPolymorphic` is quicker to read than `9 == 12`,
// and a bound in its descriptor spelling quicker than `{?} == {?}`.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_TESTS_UNIT_PRINTERS_H
#define OFFLOAD_TESTS_UNIT_PRINTERS_H

#include "offload/Core/Diagnostics.h"
#include "offload/Core/KernelDescriptor.h"
#include "offload/Core/LaunchBound.h"
#include "offload/Core/TransferRules.h"

#include <catch2/catch.hpp>

#include <string>

namespace offload::test {

inline const char *name(DiagId Id) {
  switch (Id) {
#define OFFLOAD_DIAG(Name, Level, Format)                                      \
  case DiagId::Name:                                                           \
    return #Name;
#include "offload/Core/Diagnostics.def"
#undef OFFLOAD_DIAG
  }
  return "<bad DiagId>";
}

inline const char *name(RuleId Id) {
  switch (Id) {
  case RuleId::ByValue:
    return "ByValue";
  case RuleId::ConstRef:
    return "ConstRef";
  case RuleId::ConstArrayRef:
    return "ConstArrayRef";
  case RuleId::MutRef:
    return "MutRef";
  case RuleId::MutArrayRef:
    return "MutArrayRef";
  case RuleId::SpanConst:
    return "SpanConst";
  case RuleId::SpanMut:
    return "SpanMut";
  case RuleId::OutRef:
    return "OutRef";
  case RuleId::OutSpan:
    return "OutSpan";
  case RuleId::InRef:
    return "InRef";
  case RuleId::InSpan:
    return "InSpan";
  case RuleId::ConstStdArray:
    return "ConstStdArray";
  case RuleId::MutStdArray:
    return "MutStdArray";
  case RuleId::Reduction:
    return "Reduction";
  case RuleId::SpanFields:
    return "SpanFields";
  }
  return "<bad RuleId>";
}

inline const char *name(MapKind M) {
  switch (M) {
  case MapKind::Literal:
    return "Literal";
  case MapKind::To:
    return "To";
  case MapKind::ToFrom:
    return "ToFrom";
  case MapKind::From:
    return "From";
  }
  return "<bad MapKind>";
}

inline const char *name(PayloadKind K) {
  switch (K) {
  case PayloadKind::Value:
    return "Value";
  case PayloadKind::Object:
    return "Object";
  case PayloadKind::Span:
    return "Span";
  case PayloadKind::Aggregate:
    return "Aggregate";
  }
  return "<bad PayloadKind>";
}

} // namespace offload::test

namespace Catch {
template <> struct StringMaker<offload::DiagId> {
  static std::string convert(offload::DiagId V) {
    return offload::test::name(V);
  }
};
template <> struct StringMaker<offload::RuleId> {
  static std::string convert(offload::RuleId V) {
    return offload::test::name(V);
  }
};
template <> struct StringMaker<offload::MapKind> {
  static std::string convert(offload::MapKind V) {
    return offload::test::name(V);
  }
};
template <> struct StringMaker<offload::PayloadKind> {
  static std::string convert(offload::PayloadKind V) {
    return offload::test::name(V);
  }
};
// Bounds print as the descriptor spells them (LaunchBound.cpp).
template <> struct StringMaker<offload::LaunchBound> {
  static std::string convert(const offload::LaunchBound &B) {
    return "'" + offload::encodeBound(B) + "'";
  }
};
template <> struct StringMaker<offload::DimBound> {
  static std::string convert(const offload::DimBound &D) {
    offload::LaunchBound B;
    B.Dims[0] = D;
    std::string S = offload::encodeBound(B);
    return "'" + S.substr(0, S.find('|')) + "'";
  }
};
} // namespace Catch

#endif // OFFLOAD_TESTS_UNIT_PRINTERS_H
