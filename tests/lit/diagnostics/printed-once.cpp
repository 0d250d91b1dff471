// Each plugin error is printed once, however many device compilations the
// command line asks for (issue 28: a port saw every error twice, from the
// host and the device compile), and the exit status says it failed. Two
// errors of different kinds: one the host compile finds in the kernel's
// signature, one in the kernel's body (device code) -- so both compilations
// would have something to report if both ran their checks.
// RUN: not %clangxx -std=c++20 %plugin -fopenmp -nogpulib --offload-arch=gfx90a -fno-caret-diagnostics -c %s -o /dev/null 2> %t.amd
// RUN: FileCheck %s --input-file=%t.amd --implicit-check-not=error:
// RUN: not %clangxx %host-target -fno-caret-diagnostics -c %s -o /dev/null 2> %t.host
// RUN: FileCheck %s --input-file=%t.host --implicit-check-not=error:
// RUN: %if cuda %{ not %clangxx %sm90 -fopenmp-targets=nvptx64-nvidia-cuda,x86_64-pc-linux-gnu -fno-caret-diagnostics -c %s -o /dev/null 2> %t.both %}
// RUN: %if cuda %{ FileCheck %s --input-file=%t.both --implicit-check-not=error: %}

#include <span>
#include <vector>

struct S {
  std::vector<float> a;
  int n;
};

static int counter;

// CHECK-DAG: printed-once.cpp:[[#@LINE+1]]:{{[0-9]+}}: error: kernel parameter 's': field 'a' of 'S' has type 'std::vector<float>'
[[offload::kernel]] void k(S s) { (void)s; }

[[offload::kernel]] void bump(std::span<float> x) {
  // CHECK-DAG: printed-once.cpp:[[#@LINE+1]]:3: error: kernel 'bump' uses global variable 'counter'
  counter++;
  x[ofld::global_id() % x.size()] = 1;
}

void launch(S s, std::span<float> x) {
  // CHECK-DAG: printed-once.cpp:[[#@LINE+1]]:{{[0-9]+}}: error: cannot launch kernel 'k': its declaration has errors
  offload(k, s);
  offload(ofld::launch{.grid = {1}, .block = {4}}, bump, x);
}
