//===- HostLibrary.cpp - C and C++ library parts a device lacks -----------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// A device image holds only what was compiled into it: the kernels, what they
// call that the translation unit defines (the headers' inline functions and
// templates included), and the little a device runtime provides. What the
// host's libc and libstdc++ implement out of line does not exist there, and a
// call to it fails at the device link, as a mangled nvlink or lld message, or
// (on the host offload target, which links the host's libraries) not at all.
// So the rule is the same on every target, and CI's host builds catch what
// the GPU build would reject:
//
//  * the I/O streams (std::cout, operator<<, std::endl, file and string
//    streams) are host only, inline or not: they sit on locales, buffers and
//    file descriptors. printf works in kernels on every target;
//  * so is C's standard I/O apart from printf (fopen, fprintf, puts, stdout);
//  * so is any other function a system header declares without a
//    definition, unless it is printf, malloc or free (sm_90 and AMD GPUs
//    have them), a replaceable global operator new or delete, assert's
//    handler (__assert_fail; kernels may assert), or a builtin LLVM turns
//    into instructions (memcpy, memset, abs). Other library builtins
//    (strlen, strcmp) stay calls on a GPU; a call the compiler folds to a
//    constant (strlen("abc")) is no call and is fine;
//  * the <cmath>/<math.h> and <complex> declarations are not judged here:
//    which math a device has is the device library's business (clang's
//    OpenMP math wrappers and libdevice on NVIDIA);
//  * so is any library variable the device has no copy of (the kernel body
//    checks decide which globals the device has: constants do).
//
// Only declarations in system headers are judged here; the user's own
// functions are followed into and checked statement by statement.
//
//===----------------------------------------------------------------------===//

#include "offload/Core/HostLibrary.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Type.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace offload {
namespace {

/// std::basic_ostream, std::ios_base, std::basic_filebuf... and the stream
/// iterators: the classes the I/O streams are made of.
bool isStreamClass(const CXXRecordDecl *RD) {
  if (!RD || !RD->isInStdNamespace() || !RD->getIdentifier())
    return false;
  llvm::StringRef Name = RD->getName();
  if (Name == "ios_base" || Name.ends_with("stream_iterator") ||
      Name.ends_with("streambuf_iterator"))
    return true;
  return Name.starts_with("basic_") &&
         (Name.ends_with("stream") || Name.ends_with("buf") ||
          Name == "basic_ios");
}

/// Whether `T`, through references, pointers and cv-qualifiers, names a
/// stream class.
bool namesStream(QualType T) {
  for (;;) {
    if (T.isNull())
      return false;
    T = T.getNonReferenceType();
    if (!T->isPointerType())
      break;
    T = T->getPointeeType();
  }
  return isStreamClass(T->getAsCXXRecordDecl());
}

/// Whether `T` (through pointers) is C's FILE.
bool namesFile(QualType T) {
  while (!T.isNull() && T->isPointerType())
    T = T->getPointeeType();
  if (T.isNull())
    return false;
  const auto *RD = T->getAsRecordDecl();
  return RD && RD->getIdentifier() &&
         (RD->getName() == "_IO_FILE" || RD->getName() == "__sFILE" ||
          RD->getName() == "_iobuf");
}

bool isIOStream(const Decl &D) {
  if (const auto *VD = dyn_cast<VarDecl>(&D))
    return namesStream(VD->getType());
  const auto *FD = dyn_cast<FunctionDecl>(&D);
  if (!FD)
    return false;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      MD && isStreamClass(MD->getParent()))
    return true;
  if (namesStream(FD->getReturnType()))
    return true;
  for (const ParmVarDecl *P : FD->parameters())
    if (namesStream(P->getType()))
      return true;
  return false;
}

/// The file name (without directories) that declares `D`.
llvm::StringRef headerOf(const Decl &D, const SourceManager &SM) {
  SourceLocation L = SM.getExpansionLoc(D.getLocation());
  if (L.isInvalid())
    return {};
  return llvm::sys::path::filename(SM.getFilename(L));
}

bool isMathHeader(llvm::StringRef File) {
  return File == "math.h" || File == "cmath" || File == "complex" ||
         File == "complex.h" || File == "std_abs.h" ||
         File.starts_with("mathcalls");
}

bool isStdioHeader(llvm::StringRef File) {
  return File == "stdio.h" || File == "cstdio" || File == "stdio2.h" ||
         File == "FILE.h" || File == "struct_FILE.h";
}

/// What every device (and the host offload target) provides by name: the
/// device runtime's printf and heap, assert's handler, and the library
/// builtins LLVM turns into instructions on every target (the memory
/// intrinsics, integer abs). Other library builtins (strlen, strcmp, atoi)
/// are calls on a GPU, to functions it does not have.
bool isDeviceProvided(const FunctionDecl &FD) {
  if (FD.isReplaceableGlobalAllocationFunction())
    return true;
  const IdentifierInfo *II = FD.getIdentifier();
  if (!II)
    return false;
  // The vendor math libraries the plugin links into every device module
  // (CodeGen/DeviceLibraries.cpp), which clang's math wrappers call.
  llvm::StringRef Name = II->getName();
  if (Name.starts_with("__nv_") || Name.starts_with("__ocml_") ||
      Name.starts_with("__ockl_"))
    return true;
  if (!FD.isExternC())
    return false;
  return llvm::StringSwitch<bool>(II->getName())
      .Cases({"printf", "malloc", "free"}, true)
      .Cases({"__assert_fail", "__assert_perror_fail", "__assert"}, true)
      // What the device's assert handler calls (runtime's device_libc).
      .Cases({"__assertfail", "vprintf"}, true)
      .Cases({"memcpy", "memmove", "memset", "abs", "labs", "llabs"}, true)
      .Default(false);
}

} // namespace

std::optional<HostLibraryKind>
hostOnlyLibrary(const Decl &D, bool HasDefinition, const SourceManager &SM) {
  if (isIOStream(D))
    return HostLibraryKind::IOStream;
  llvm::StringRef File = headerOf(D, SM);
  const auto *FD = dyn_cast<FunctionDecl>(&D);
  const auto *VD = dyn_cast<VarDecl>(&D);
  if (!FD && !VD)
    return std::nullopt;
  // Before builtins: clang knows fprintf and puts, but no device has them.
  bool Stdio = isStdioHeader(File) ||
               namesFile(FD ? FD->getReturnType() : VD->getType());
  if (FD)
    for (const ParmVarDecl *P : FD->parameters())
      Stdio |= namesFile(P->getType());
  if (Stdio && !(FD && isDeviceProvided(*FD)))
    return HostLibraryKind::CStdio;
  if (HasDefinition || isMathHeader(File))
    return std::nullopt;
  if (FD && isDeviceProvided(*FD))
    return std::nullopt;
  // std::move, std::forward, std::addressof: clang's own, never calls.
  if (FD && FD->getBuiltinID() && !FD->isExternC())
    return std::nullopt;
  return HostLibraryKind::Other;
}

} // namespace offload
