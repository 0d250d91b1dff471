//===- nvtx_inject.c - an NVTX tool that prints the ranges it is given ----===//
//
// Part of the offload project's tests. Loaded through NVTX_INJECTION64_PATH,
// as Nsight Systems' own injection library is: NVTX 3's header-only code in
// libofld_rt finds InitializeInjectionNvtx2 here, and every domain range
// push and pop is printed on stderr (tests/lit/profile/nvtx.test).
//
//===----------------------------------------------------------------------===//

#include <nvtx3/nvToolsExt.h>

#include <stdio.h>
#include <string.h>

static nvtxDomainHandle_t NVTX_API createDomain(const char *Name) {
  fprintf(stderr, "nvtx domain: %s\n", Name);
  return (nvtxDomainHandle_t)strdup(Name);
}

static int NVTX_API push(nvtxDomainHandle_t Domain,
                         const nvtxEventAttributes_t *A) {
  fprintf(stderr, "nvtx push [%s]: %s\n", Domain ? (const char *)Domain : "?",
          A->messageType == NVTX_MESSAGE_TYPE_ASCII ? A->message.ascii : "?");
  return 0;
}

static int NVTX_API pop(nvtxDomainHandle_t Domain) {
  fprintf(stderr, "nvtx pop [%s]\n", Domain ? (const char *)Domain : "?");
  return 0;
}

__attribute__((visibility("default"))) int
InitializeInjectionNvtx2(NvtxGetExportTableFunc_t GetTable) {
  const NvtxExportTableCallbacks *Callbacks =
      (const NvtxExportTableCallbacks *)GetTable(NVTX_ETID_CALLBACKS);
  NvtxFunctionTable Table;
  unsigned Size;
  if (!Callbacks ||
      !Callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &Table, &Size) ||
      Size <= NVTX_CBID_CORE2_DomainCreateA)
    return 0;
  *Table[NVTX_CBID_CORE2_DomainCreateA] = (NvtxFunctionPointer)createDomain;
  *Table[NVTX_CBID_CORE2_DomainRangePushEx] = (NvtxFunctionPointer)push;
  *Table[NVTX_CBID_CORE2_DomainRangePop] = (NvtxFunctionPointer)pop;
  return 1;
}
