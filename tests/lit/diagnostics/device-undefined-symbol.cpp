// The GPU device compile's last check: a symbol the optimised device code
// still needs, that no device library has and no 'declare target'
// declaration promises from another file, is an error at the line that needs
// it (through the library's inlined code: std::string_view's constructor
// calls strlen), naming the kernel (or the device function no kernel
// reaches) and the symbol, demangled, at -O0 and -O2, for NVIDIA and AMD.
// The host offload target links the host's libraries: nothing to report
// there, and the AST checks have nothing to say either (strlen is called
// inside the library). offload-rewrite, which emits no device code, accepts
// it too.
#include <span>
#include <string_view>
// RUN: %if cuda %{ %clangxx %sm90 --offload-device-only -S -O2 -Xclang -verify %s -o %t.s %}
// RUN: %if cuda %{ %clangxx %sm90 --offload-device-only -S -O0 -Xclang -verify %s -o %t.s %}
// RUN: %if cuda %{ not %clangxx %sm90 --offload-device-only -c -O2 -fno-caret-diagnostics %s -o %t.o 2>&1 | FileCheck %s --check-prefix=NVPTX --implicit-check-not=error: %}
// RUN: %clangxx -std=c++20 %plugin -fopenmp -nogpulib --offload-arch=gfx90a --offload-device-only -S -O2 -Xclang -verify %s -o %t.s
// RUN: %clangxx %host-target -c -O2 %s -o %t.host.o

#pragma omp declare target
int helper(int);     // defined for the device in another file
extern int counter;  // likewise
int only_device(const char *name) {
  return int(std::string_view(name).size()); // the error is at this line
}
#pragma omp end declare target

[[offload::kernel]] void k(std::span<const char> s, std::span<int> out) {
  std::string_view view(s.data()); // and at this one
  out[0] = int(view.size()) + helper(out[1]) + counter;
}
// -verify reads both the device compile and the host compile the driver
// runs for its host IR; only the device compile reports.
#if defined(__NVPTX__) || defined(__AMDGPU__)
// expected-error@23 {{device function 'only_device' needs 'strlen', which nothing compiled for}}
// expected-error@28 {{kernel 'k' needs 'strlen', which nothing compiled for}}
#else
// expected-no-diagnostics
#endif

// Kernels first, then device code no kernel reaches.
// NVPTX: device-undefined-symbol.cpp:28:20: error: kernel 'k' needs 'strlen', which nothing compiled for sm_90 defines: not this file, not the device's libraries, and no 'declare target' declaration promises it from another file (the device link would fail)
// NVPTX: device-undefined-symbol.cpp:23:14: error: device function 'only_device' needs 'strlen', which nothing compiled for sm_90 defines: not this file, not the device's libraries, and no 'declare target' declaration promises it from another file (the device link would fail)
