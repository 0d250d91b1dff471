//===- DeviceSymbols.h - what no device library defines --------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The last check of a GPU device compile: a symbol the optimised device code
// still needs but nothing will define reports the kernel and the line that
// needs it, demangled, instead of failing the device link with nvlink's or
// lld's message about a mangled name. What the AST checks
// (Sema/KernelBodyChecks.cpp) cannot see ends up here: code generation's own
// calls (a library builtin such as strlen that the GPU does not lower) and
// calls inside the library's inlined code.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CODEGEN_DEVICESYMBOLS_H
#define OFFLOAD_CODEGEN_DEVICESYMBOLS_H

#include "llvm/ADT/StringSet.h"
#include "llvm/IR/PassManager.h"

#include <memory>

namespace clang {
class ASTConsumer;
class CompilerInstance;
} // namespace clang

namespace offload {

/// The mangled names of functions and variables declared inside
/// `#pragma omp declare target` without a definition in the translation
/// unit: another file may define them for the device.
struct DevicePromises {
  llvm::StringSet<> Names;
};

/// Fills `Out` when the translation unit is complete; the AST is gone by the
/// time the optimiser runs (-clear-ast-before-backend).
std::unique_ptr<clang::ASTConsumer>
createDevicePromiseCollector(std::shared_ptr<DevicePromises> Out);

/// Reports, through clang's diagnostics, every symbol the device module
/// needs that no device library provides and that `Promises` does not name.
/// Runs at the end of the optimisation pipeline of NVPTX and AMDGPU device
/// compiles.
class DeviceSymbolsPass : public llvm::PassInfoMixin<DeviceSymbolsPass> {
public:
  DeviceSymbolsPass(clang::CompilerInstance &CI,
                    std::shared_ptr<const DevicePromises> Promises)
      : CI(CI), Promises(std::move(Promises)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);

private:
  clang::CompilerInstance &CI;
  std::shared_ptr<const DevicePromises> Promises;
};

} // namespace offload

#endif // OFFLOAD_CODEGEN_DEVICESYMBOLS_H
