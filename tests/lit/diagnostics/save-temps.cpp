// -save-temps preprocesses in a job of its own that runs no plugin action, so
// what it writes is the header's CPU fallback, not launches the plugin lowers:
// the compile of that output is refused once, without a location. Compiling a
// file preprocessed by hand (-E) is the same thing. offload-rewrite has no
// counterpart: it reads the original source.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: not %clangxx %host-target -save-temps -c %s -o %t/k.o 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %clangxx %host-target --offload-host-only -E %s -o %t/k.ii
// RUN: not %clangxx %host-target --offload-host-only -c %t/k.ii -o %t/k.o 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// CHECK: error: the offload plugin cannot compile preprocessed source (from '-save-temps' or '-E'): the plugin's header and predefines were not in the preprocessing; compile the original file, without '-save-temps'
[[offload::kernel]] void scale(std::span<float> v) { v[ofld::global_id()] *= 2; }
