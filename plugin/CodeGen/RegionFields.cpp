//===- RegionFields.cpp - the span fields an ofld::region maps ------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Each annotated `__ofld_fields_of<S>` gets a table of its span fields (see
// RegionFields.h). A field's row holds the offsets of its data pointer and
// size in the object (the span's offset plus the pointer's or size's offset
// inside std::span), its element size and its map bits.
//
//===----------------------------------------------------------------------===//

#include "RegionFields.h"
#include "RuntimeABI.h"

#include "offload/Core/KernelDescriptor.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace offload {
namespace {

/// The rows of `Layout`'s span fields, then the row of zeros that ends them.
Constant *fieldTable(Module &M, const ParamLayout &Layout) {
  LLVMContext &Ctx = M.getContext();
  StructType *Row = abi::spanFieldType(Ctx);
  auto I64 = [&](int64_t V) {
    return ConstantInt::get(Type::getInt64Ty(Ctx), V);
  };
  SmallVector<Constant *, 8> Rows;
  for (const SpanField &F : Layout.Fields) {
    Constant *Values[] = {
#define OFLD_ABI_SPAN_FIELD(Enum, Name, Type) nullptr,
#include "offload/runtime_abi.def"
    };
    auto Set = [&](abi::SpanFieldField Which, int64_t V) {
      Values[unsigned(Which)] = I64(V);
    };
    Set(abi::SpanFieldField::DataOffset, F.Offset + F.DataOffset);
    // A static extent has no size member to read.
    Set(abi::SpanFieldField::SizeOffset,
        F.Count ? -1 : int64_t(F.Offset + F.CountOffset));
    Set(abi::SpanFieldField::Extent, F.Count);
    Set(abi::SpanFieldField::ElementBytes, F.Bytes);
    Set(abi::SpanFieldField::Map, abi::transferBits(F.Map));
    Rows.push_back(ConstantStruct::get(Row, Values));
  }
  Rows.push_back(Constant::getNullValue(Row));
  return ConstantArray::get(ArrayType::get(Row, Rows.size()), Rows);
}

} // namespace

PreservedAnalyses RegionFieldsPass::run(Module &M, ModuleAnalysisManager &) {
  GlobalVariable *GA = M.getGlobalVariable("llvm.global.annotations");
  auto *Arr = GA && GA->hasInitializer()
                  ? dyn_cast<ConstantArray>(GA->getInitializer())
                  : nullptr;
  if (!Arr)
    return PreservedAnalyses::all();
  bool Changed = false;
  for (const Use &Op : Arr->operands()) {
    auto *Entry = dyn_cast<ConstantStruct>(Op.get());
    if (!Entry || Entry->getNumOperands() < 2)
      continue;
    auto *GV =
        dyn_cast<GlobalVariable>(Entry->getOperand(0)->stripPointerCasts());
    StringRef Text;
    if (!GV || GV->isDeclaration() ||
        !getConstantStringInfo(Entry->getOperand(1), Text) ||
        !Text.consume_front(RegionFieldsAnnotationPrefix))
      continue;
    Expected<KernelDescriptor> D = decodeKernel(Text);
    if (!D) {
      M.getContext().emitError("offload: bad span field table of '" +
                               GV->getName() + "': " + toString(D.takeError()));
      continue;
    }
    if (D->Params.size() != 1 || D->Params[0].Kind != PayloadKind::Aggregate) {
      M.getContext().emitError("offload: bad span field table of '" +
                               GV->getName() + "': not one class's fields");
      continue;
    }
    Constant *Rows = fieldTable(M, D->Params[0]);
    auto *Table = new GlobalVariable(M, Rows->getType(), /*isConstant=*/true,
                                     GlobalValue::PrivateLinkage, Rows,
                                     GV->getName() + ".fields");
    // Kept or dropped with the variable that points to it.
    Table->setComdat(GV->getComdat());
    GV->setInitializer(Table);
    // Every TU's plugin gives S the same table: the value is final.
    GV->setConstant(true);
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace offload
