//===- FieldMarkers.h - drop [[offload::out]]'s annotations -----*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// [[offload::out]] on a span field of a kernel parameter's class is an
// `annotate` attribute (core/lib/KernelAttributes.cpp): the transfer rules
// read it from the AST. Clang also lowers an annotated field to a call of
// llvm.ptr.annotation at every access of the field, and to SROA that call
// lets the object's address escape: a GPU entry's rebuilt struct of spans
// (DeviceEntries.cpp) then stays in local memory, every thread storing all
// of its fields there and reading the annotated span back through a generic
// pointer (XSBench's lookup through a struct of 9 spans: 17 STL a thread and
// generic instead of global stores of the results, 6% slower than the same
// kernel taking the spans as parameters; bench/apps/README.md).
//
// On a kernel parameter the attribute becomes an llvm.var.annotation call
// on the parameter's stack slot, which keeps the slot too: a kernel took its
// [[offload::out]] span from local memory and stored its results through a
// generic pointer (btree's find_k: `st.local` of the span at entry, `ld.local`
// and `st.b32` for each answer, where nvcc has `st.global`).
//
// DropFieldMarkersPass removes both kinds of call whose annotation is one of
// the plugin's markers (a field access becomes the pointer it annotated), at
// the start of the pipeline, in device and host compiles alike: nothing
// reads them from IR.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CODEGEN_FIELDMARKERS_H
#define OFFLOAD_CODEGEN_FIELDMARKERS_H

#include "llvm/IR/PassManager.h"

namespace offload {

class DropFieldMarkersPass : public llvm::PassInfoMixin<DropFieldMarkersPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace offload

#endif // OFFLOAD_CODEGEN_FIELDMARKERS_H
