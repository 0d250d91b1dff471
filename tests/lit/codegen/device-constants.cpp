// Constants that kernels read get a copy, with their values, in the device
// image (they become declare target implicitly); constants only the host
// reads do not. Internal ones (namespace-scope const/constexpr) are private
// to each image and need no offload entry; externally visible ones
// (inline variables, static data members) are registered by the host like
// any declare-target global. A constant reached only through another one's
// value (`view` points to `weights`) is copied too.
// (The NOT lines run on their own: they hold for the whole module.)
// RUN: %if cuda %{ %clangxx %sm90 --offload-device-only -O0 -S -emit-llvm %s -o %t.nvptx.ll %}
// RUN: %if cuda %{ FileCheck %s --check-prefix=DEV < %t.nvptx.ll %}
// RUN: %if cuda %{ FileCheck %s --check-prefixes=DEVNOT,NVPTXNOT < %t.nvptx.ll %}
// RUN: %clangxx %host-target --offload-device-only -O0 -S -emit-llvm %s -o %t.cpu.ll
// RUN: FileCheck %s --check-prefix=DEV < %t.cpu.ll
// RUN: FileCheck %s --check-prefix=DEVNOT < %t.cpu.ll
// RUN: %clangxx %host-target --offload-host-only -O0 -S -emit-llvm %s -o %t.host.ll
// RUN: FileCheck %s --check-prefix=HOST < %t.host.ll
// RUN: FileCheck %s --check-prefix=HOSTNOT < %t.host.ll

#include <array>
#include <span>

constexpr std::array<int, 4> perm{3, 1, 2, 0};
const float weights[3] = {0.25f, 0.5f, 0.25f};
inline constexpr std::array<short, 2> steps{11, 22};
struct Taps {
  static constexpr std::array<float, 2> taps{1.5f, 2.5f};
};
constexpr const float *view = weights;
constexpr std::array<int, 2> host_only{8, 9};
int read_on_host() { return host_only[1]; }

int helper(std::size_t i) { return perm[i % 4]; }

[[offload::kernel]] void k(std::span<float> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = helper(i) + steps[i % 2] + Taps::taps[i % 2] + view[i % 3];
}

// DEV-DAG: @_ZL4perm = internal {{.*}}constant %"struct.std::array{{[.0-9]*}}" { [4 x i32] [i32 3, i32 1, i32 2, i32 0] }
// DEV-DAG: @steps = linkonce_odr protected {{.*}}constant %"struct.std::array{{[.0-9]*}}" { [2 x i16] [i16 11, i16 22] }
// DEV-DAG: @_ZN4Taps4tapsE = linkonce_odr protected {{.*}}constant %"struct.std::array{{[.0-9]*}}" { [2 x float] [float 1.500000e+00, float 2.500000e+00] }
// DEV-DAG: @_ZL7weights = internal {{.*}}constant [3 x float] [float 2.500000e-01, float 5.000000e-01, float 2.500000e-01]
// DEVNOT-NOT: host_only
// Nothing left undefined for the device link.
// NVPTXNOT-NOT: = external {{.*}}global
// NVPTXNOT-NOT: = external {{.*}}constant

// HOST-DAG: @.offloading.entry.steps = weak constant %struct.__tgt_offload_entry {{.*}} ptr @steps,
// HOST-DAG: @.offloading.entry._ZN4Taps4tapsE = weak constant %struct.__tgt_offload_entry {{.*}} ptr @_ZN4Taps4tapsE,
// HOSTNOT-NOT: @.offloading.entry._ZL4perm
// HOSTNOT-NOT: @.offloading.entry._ZL7weights
// HOSTNOT-NOT: @.offloading.entry.{{.*}}host_only
