// On GPU targets a block holds at most 1024 threads; the host offload target
// has no such limit. --offload-host-only needs no CUDA installation.
// offload-rewrite knows the targets from the compile command as well.
#include <span>
// RUN: %clangxx -std=c++20 %plugin -fopenmp -nogpulib -fopenmp-targets=nvptx64-nvidia-cuda --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx -std=c++20 %plugin -fopenmp -nogpulib -fopenmp-targets=nvptx64-nvidia-cuda --offload-host-only -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors -fopenmp --offload-arch=sm_90 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify=cpu %s
// RUN: %if rewriter %{ %rewrite-errors -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu > /dev/null 2> %t.err %}
// RUN: %if rewriter %{ FileCheck %s --check-prefix=CPU --implicit-check-not=error: < %t.err %}
// cpu-no-diagnostics
// CPU: offload-rewrite: rewrote 2 calls in 1 file

[[offload::kernel]] void k(std::span<float> v) {}

void host(std::span<float> v) {
  // CHECK: launch-block-gpu.cpp:[[@LINE+1]]:47: error: launch block of 2048 threads is more than the 1024 a block holds on nvptx64-nvidia-cuda
  offload(ofld::launch{.grid = {4}, .block = {64, 32}}, k, v); // expected-error {{launch block of 2048 threads is more than the 1024 a block holds on nvptx64-nvidia-cuda}}
  offload(ofld::launch{.grid = {4}, .block = {32, 32}}, k, v);
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
