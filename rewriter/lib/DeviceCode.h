//===- DeviceCode.h - what a TU's kernels reach -----------------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The rewritten code is compiled by OpenMP compilers, which need to be told
// more than the plugin does: the namespace-scope tables kernels read must be
// `declare target`; GCC refuses by-value std::span parameters in device code
// (ofld::bridge::span_param); the teams form refuses kernels that
// synchronise in blocks larger than a team. This walks each kernel and the
// functions it calls (with bodies in this translation unit) and says so.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_REWRITER_DEVICECODE_H
#define OFFLOAD_REWRITER_DEVICECODE_H

#include "clang/AST/Type.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

namespace clang {
class ASTContext;
class CXXRecordDecl;
class FunctionDecl;
class ParmVarDecl;
class VarDecl;
} // namespace clang

namespace offload {
namespace rewrite {

/// What device code reaches from the kernels of a translation unit.
struct DeviceCode {
  /// Every function reached, kernels included, as the template pattern
  /// where it is an instantiation (the text to edit is the template's).
  llvm::SetVector<const clang::FunctionDecl *> Functions;
  /// Namespace-scope variables and static data members the functions read.
  llvm::SetVector<const clang::VarDecl *> Globals;
  /// The classes at namespace scope that hold those static data members
  /// (the outermost, as the template pattern): OpenMP's declare target
  /// brackets a whole class, not a member.
  llvm::SetVector<const clang::CXXRecordDecl *> Classes;
  /// Those static data members as the code names them (a class template's
  /// member of one specialisation, not the pattern): g++ 12 emits a device
  /// copy only for members named in `declare target to(...)`.
  llvm::SetVector<const clang::VarDecl *> StaticMembers;
  /// Per kernel (canonical declaration): it calls ofld::sync_threads() or
  /// declares an ofld::shared_array, itself or in a function it calls.
  llvm::DenseMap<const clang::FunctionDecl *, bool> Synchronises;
  /// Per kernel: it calls an ofld:: warp function that exchanges values
  /// between lanes (shfl*, ballot, any, all, sync_warp), or a function that
  /// does.
  llvm::DenseMap<const clang::FunctionDecl *, bool> WarpLevel;
  /// Local variables of type ofld::shared_array without a tag argument.
  llvm::SetVector<const clang::VarDecl *> UntaggedSharedArrays;
};

/// The class at namespace scope that holds static data member `VD`, as
/// written (the template's pattern for an instantiation); null for a local
/// class.
const clang::CXXRecordDecl *outermostClass(const clang::VarDecl &VD);

/// Walks `Kernels` (definitions or declarations) and what they call.
DeviceCode findDeviceCode(clang::ASTContext &Ctx,
                          llvm::ArrayRef<const clang::FunctionDecl *> Kernels);

/// Whether `T` is a std::span (also one that depends on template
/// parameters) taken by value.
bool isSpanByValue(clang::QualType T);

/// Whether `P` is a std::span taken by value that its function never
/// assigns, takes the address of, or binds to a non-const reference: such a
/// parameter reads the same as a const reference to a span.
bool isReadOnlySpanByValue(const clang::ParmVarDecl &P);

/// By-value class parameters of this many bytes or more travel through
/// device memory (mapped `to`, not firstprivate: g++ copies a firstprivate
/// object onto the stack of the region), as the plugin's large by-value
/// objects; where the kernel never writes its copy it reads the object in
/// place (ofld::bridge::value_param). g++'s NVPTX code keeps the copy of a
/// kernel that writes it on libgomp's stack, 128 KiB per warp: the launch
/// names its size to the bridge, which checks it (ofld::bridge::site).
inline constexpr uint64_t LargeValueBytes = 1024;

/// Whether `P`, a kernel's parameter, is a class object of LargeValueBytes
/// or more taken by value.
bool isLargeValue(const clang::ParmVarDecl &P, clang::ASTContext &Ctx);

/// Whether `P` is a large value (isLargeValue) that the kernel's definition
/// never modifies (clang's ExprMutationAnalyzer); a declaration without a
/// visible definition counts as read-only, as for spans.
bool isLargeReadOnlyValue(const clang::ParmVarDecl &P, clang::ASTContext &Ctx);

/// Whether `P` is an object of a class holding std::span fields (the
/// transfer table's SpanFields row) taken by value: g++ 12 refuses it in
/// device code as it refuses a span, so offload-rewrite spells it
/// ofld::bridge::value_param.
bool isSpanStructByValue(const clang::ParmVarDecl &P, clang::ASTContext &Ctx);

/// Whether the definition of `P`'s function modifies `P` (clang's
/// ExprMutationAnalyzer); false for a declaration without a visible
/// definition (its definition decides, and agrees).
bool isModifiedParam(const clang::ParmVarDecl &P, clang::ASTContext &Ctx);

} // namespace rewrite
} // namespace offload

#endif // OFFLOAD_REWRITER_DEVICECODE_H
