//===- BundledHeaders.cpp - the user header inside the plugin -------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The technique follows Enzyme's ClangEnzyme plugin: an in-memory file system
// overlaid on the real one, an angled search path into it, and predefines.
//
//===----------------------------------------------------------------------===//

#include "BundledHeaders.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace clang;

namespace offload {

namespace {
struct BundledHeader {
  const char *Path;
  const char *Text;
};
constexpr BundledHeader Headers[] = {
#include "BundledHeaders.inc"
};
constexpr const char *Root = "/__offload_plugin__/include";
} // namespace

void installBundledHeaders(CompilerInstance &CI) {
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  for (const BundledHeader &H : Headers)
    Memory->addFile(std::string(Root) + "/" + H.Path, /*ModificationTime=*/0,
                    llvm::MemoryBuffer::getMemBuffer(H.Text, H.Path));
  FileManager &FM = CI.getFileManager();
  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      FM.getVirtualFileSystemPtr());
  Overlay->pushOverlay(Memory);
  FM.setVirtualFileSystem(Overlay);

  Preprocessor &PP = CI.getPreprocessor();
  if (auto Dir = FM.getOptionalDirectoryRef(Root))
    PP.getHeaderSearchInfo().AddSearchPath(
        DirectoryLookup(*Dir, SrcMgr::C_System, /*isFramework=*/false),
        /*isAngled=*/true);
  std::string Predefines = PP.getPredefines();
  Predefines += "#define __OFFLOAD_PLUGIN__ 1\n";
  // A device compilation (GPU or host offload target) emits no host code:
  // the header then declares offload() without what only the host needs.
  if (CI.getLangOpts().OpenMPIsTargetDevice)
    Predefines += "#define __OFFLOAD_PLUGIN_DEVICE__ 1\n";
  Predefines += "#include <offload/offload.hpp>\n";
  PP.setPredefines(Predefines);
}

} // namespace offload
