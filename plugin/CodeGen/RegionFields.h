//===- RegionFields.h - the span fields an ofld::region maps ----*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// `ofld::region r{s}` for an object of a class with std::span fields keeps
// each field's range resident, as a launch taking `s` maps it. The region is
// a header template: it reads where the fields lie from
// `__ofld_fields_of<S>` (offload/region.hpp). Sema annotates each
// specialisation with the class's Aggregate layout, the one a kernel
// parameter of that class gets (TransferRules.cpp, spanFieldsOf); this pass
// makes the annotation the variable's value: a constant table of
// `struct __ofld_span_field` rows (runtime_abi.def).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CODEGEN_REGIONFIELDS_H
#define OFFLOAD_CODEGEN_REGIONFIELDS_H

#include "llvm/IR/PassManager.h"

namespace offload {

class RegionFieldsPass : public llvm::PassInfoMixin<RegionFieldsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace offload

#endif // OFFLOAD_CODEGEN_REGIONFIELDS_H
