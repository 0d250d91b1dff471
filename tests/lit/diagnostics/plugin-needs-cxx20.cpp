// The plugin and its bundled header are C++20: below it, one fatal error of
// the command line (no location) and nothing else, whatever the source uses
// (std::span here would fail too). clang 22 defaults to gnu++17, so a
// command line without -std gets the same error. offload-rewrite has no
// counterpart: its output is plain OpenMP.
// RUN: %clangxx -std=c++17 %plugin -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu -fsyntax-only -Xclang -verify %s
// RUN: not %clangxx -std=c++17 %plugin -fopenmp -nogpulib -fopenmp-targets=x86_64-pc-linux-gnu -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CXX17 --implicit-check-not=error:
// RUN: not %clangxx %plugin -fopenmp -nogpulib -fopenmp-targets=x86_64-pc-linux-gnu -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEFAULT --implicit-check-not=error:
// RUN: %if cuda %{ not %clangxx -std=c++14 %plugin -fopenmp -nogpulib --offload-arch=sm_90 --cuda-path=%cuda-path -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CXX14 --implicit-check-not=error: %}
// CXX17: fatal error: offload needs -std=c++20 or later (this compile uses -std=c++17)
// CXX17-NEXT: 1 error generated.
// DEFAULT: fatal error: offload needs -std=c++20 or later (this compile uses -std=gnu++17)
// DEFAULT-NEXT: 1 error generated.
// CXX14: fatal error: offload needs -std=c++20 or later (this compile uses -std=c++14)
// CXX14-NEXT: 1 error generated.
// expected-error@*:* {{offload needs -std=c++20 or later (this compile uses -std=c++17)}}
#include <span>

[[offload::kernel]] void scale(float a, std::span<float> x) {
  std::size_t i = ofld::global_id();
  if (i < x.size())
    x[i] *= a;
}

int main() {
  float v[4] = {1, 2, 3, 4};
  offload(scale, 2.0f, std::span<float>(v));
}
