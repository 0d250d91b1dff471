//===- EntryGuards.h - one bounds test atop an NVPTX entry --*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// A kernel's bounds test, `if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)`,
// reaches the end of LLVM's pipeline as a chain of early exits: SimplifyCFG
// merges two tests into one branch only when the second costs at most one
// instruction, so the first test (on `i`) stays a branch of its own and the
// ids, sizes and parameters of the others are read only after it: two
// rounds of S2R/LDC latency and two EXITs before the first load, where
// nvcc's kernel reads everything at once and exits once. On an H100 the
// folded test made Jacobi-2D 0.7-1.8% faster (docs/Performance.md).
//
// FoldEntryGuardsPass folds such a chain into one test: while an NVPTX
// entry's first block branches to an exit block and to a block that only
// computes another condition for branching there (few instructions, all
// safe to execute speculatively), that block's instructions move into the
// first block and the two branches become one on `c1 || c2` (a logical or:
// the second condition, computed speculatively, is not needed, and may be
// poison, when the first exits). It runs once the kernel is inlined into
// its entry (the end of the optimisation pipeline), at -O1 and above.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CODEGEN_ENTRYGUARDS_H
#define OFFLOAD_CODEGEN_ENTRYGUARDS_H

#include "llvm/IR/PassManager.h"

namespace offload {

class FoldEntryGuardsPass : public llvm::PassInfoMixin<FoldEntryGuardsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace offload

#endif // OFFLOAD_CODEGEN_ENTRYGUARDS_H
