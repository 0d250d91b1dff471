//===- TypeDescriptors.h - descriptors from parameter types -----*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The analyses of launches (launch groups, loop residency) read a kernel's
// descriptor, not its declaration. Their unit tests parse small sources
// without the plugin, so they build the descriptor here from the parameter
// types, by the transfer table's rows for the forms those sources use: a
// std::span (to the device if of const elements, both ways otherwise), a
// reference (to the device if const), a value.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_TESTS_UNIT_TYPEDESCRIPTORS_H
#define OFFLOAD_TESTS_UNIT_TYPEDESCRIPTORS_H

#include "offload/Core/KernelDescriptor.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"

#include <map>
#include <string>

namespace offload::test {

inline const KernelDescriptor &descriptorOf(const clang::FunctionDecl &K) {
  static std::map<const clang::FunctionDecl *, KernelDescriptor> Memo;
  auto [It, New] = Memo.try_emplace(&K);
  if (New)
    for (const clang::ParmVarDecl *P : K.parameters()) {
      clang::QualType T = P->getType();
      ParamLayout L;
      const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
      if (RD && RD->getName() == "span") {
        L.Kind = PayloadKind::Span;
        L.Map = T.getAsString().find("const") != std::string::npos
                    ? MapKind::To
                    : MapKind::ToFrom;
      } else if (T->isReferenceType()) {
        L.Kind = PayloadKind::Object;
        L.Map = T.getNonReferenceType().isConstQualified() ? MapKind::To
                                                           : MapKind::ToFrom;
      }
      It->second.Params.push_back(L);
    }
  return It->second;
}

} // namespace offload::test

#endif // OFFLOAD_TESTS_UNIT_TYPEDESCRIPTORS_H
