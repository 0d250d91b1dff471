//===- RuntimeABI.h - the runtime's ABI, as IR ------------------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The plugin's expansion of offload/runtime_abi.def, the table that
// offload/runtime.h expands into the runtime's C declarations: the runtime
// functions the emitted code calls, the call-site record, the launch modes,
// the dims layout and the map bits. Nothing here spells a runtime signature
// or number of its own.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CODEGEN_RUNTIMEABI_H
#define OFFLOAD_CODEGEN_RUNTIMEABI_H

#include "offload/Core/KernelDescriptor.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Frontend/OpenMP/OMPConstants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Module.h"

#include <cstdint>

namespace offload {
namespace abi {

/// The runtime functions the plugin calls.
enum class RuntimeFn {
#define OFLD_ABI_FUNCTION(Name, ReturnType, ...) Name,
#include "offload/runtime_abi.def"
};

/// The IR type of each type token of the table.
struct Types {
#define OFLD_ABI_TYPE(Token, CType, IRType) llvm::Type *Token;
#include "offload/runtime_abi.def"

  explicit Types(llvm::LLVMContext &Ctx) {
    struct {
      llvm::Type *Void, *I32, *I64, *Ptr;
    } IR = {llvm::Type::getVoidTy(Ctx), llvm::Type::getInt32Ty(Ctx),
            llvm::Type::getInt64Ty(Ctx), llvm::PointerType::get(Ctx, 0)};
#define OFLD_ABI_TYPE(Token, CType, IRType) Token = IR.IRType;
#include "offload/runtime_abi.def"
  }
};

/// Declares `F` in `M` (or finds its declaration) with the table's type.
inline llvm::FunctionCallee declare(llvm::Module &M, RuntimeFn F) {
  Types T(M.getContext());
  switch (F) {
#define OFLD_ABI_PARAM(Type, Name) T.Type
#define OFLD_ABI_FUNCTION(Name, ReturnType, ...)                               \
  case RuntimeFn::Name:                                                        \
    return M.getOrInsertFunction(                                              \
        #Name, llvm::FunctionType::get(T.ReturnType, {__VA_ARGS__}, false));
#include "offload/runtime_abi.def"
  }
  llvm_unreachable("a runtime function without a row");
}

/// The fields of `struct __ofld_site`, in order.
enum class SiteField {
#define OFLD_ABI_SITE_FIELD(Enum, Name, Type) Enum,
#include "offload/runtime_abi.def"
};

/// The IR type of `struct __ofld_site`.
inline llvm::StructType *siteType(llvm::LLVMContext &Ctx) {
  Types T(Ctx);
  return llvm::StructType::get(Ctx, {
#define OFLD_ABI_SITE_FIELD(Enum, Name, Type) T.Type,
#include "offload/runtime_abi.def"
                                    });
}

/// The fields of `struct __ofld_span_field`, in order.
enum class SpanFieldField {
#define OFLD_ABI_SPAN_FIELD(Enum, Name, Type) Enum,
#include "offload/runtime_abi.def"
};

/// The IR type of `struct __ofld_span_field`.
inline llvm::StructType *spanFieldType(llvm::LLVMContext &Ctx) {
  Types T(Ctx);
  return llvm::StructType::get(Ctx, {
#define OFLD_ABI_SPAN_FIELD(Enum, Name, Type) T.Type,
#include "offload/runtime_abi.def"
                                    });
}

/// Bits of __ofld_site::flags.
#define OFLD_ABI_SITE_FLAG(Enum, Name, Value)                                  \
  inline constexpr uint32_t SiteFlag##Enum = Value;
#include "offload/runtime_abi.def"

/// What __ofld_launch_shape returns.
enum LaunchMode : int32_t {
#define OFLD_ABI_LAUNCH_MODE(Enum, Name, Value) Mode##Enum = Value,
#include "offload/runtime_abi.def"
};

#define OFLD_ABI_CONSTANT(Enum, Name, Value)                                   \
  inline constexpr unsigned Enum = Value;
#include "offload/runtime_abi.def"

/// The map-type bits, which must be libomptarget's.
#define OFLD_ABI_MAP_BIT(Enum, Name, Value, OMPName)                           \
  inline constexpr uint64_t Map##Enum = Value;                                 \
  static_assert(Map##Enum ==                                                   \
                    static_cast<uint64_t>(                                     \
                        llvm::omp::OpenMPOffloadMappingFlags::OMPName),        \
                "runtime_abi.def: " #Enum " is not libomptarget's " #OMPName);
#include "offload/runtime_abi.def"

/// The map bits of a transfer.
inline uint64_t transferBits(MapKind M) {
  switch (M) {
  case MapKind::To:
    return MapTo;
  case MapKind::From:
    return MapFrom;
  case MapKind::ToFrom:
    return MapTo | MapFrom;
  case MapKind::Literal:
    break;
  }
  return 0;
}

/// The marker symbols and names of offload.hpp.
#define OFLD_ABI_MARKER(Enum, Name)                                            \
  inline constexpr llvm::StringLiteral Marker##Enum = #Name;
#include "offload/runtime_abi.def"

/// Runtime variables.
#define OFLD_ABI_VARIABLE(Enum, Name, CType)                                   \
  inline constexpr llvm::StringLiteral Variable##Enum = #Name;
#include "offload/runtime_abi.def"

} // namespace abi
} // namespace offload

#endif // OFFLOAD_CODEGEN_RUNTIMEABI_H
