/*
Without the plugin (g++ 12, plain clang++ 22) the header runs kernels on
the CPU: the attributes are accepted without a warning, also when the user
wraps the include in a diagnostic push/pop (g++); the header says once that
kernels run on the CPU; the host API links without libofld_rt; and
OFFLOAD_REQUIRE_PLUGIN turns the note into an error.

RUN: rm -rf %t && mkdir -p %t
RUN: %if gxx %{ %gxx -std=c++20 -Wall -Wextra -Werror -fno-diagnostics-show-caret \
RUN:   -I%runtime-include %s -o %t/gxx 2>&1 | FileCheck %s --check-prefix=GXX \
RUN:   --implicit-check-not=warning: --implicit-check-not=error: \
RUN:   --implicit-check-not="plugin not loaded" %}
RUN: %if gxx %{ %t/gxx | FileCheck %s %}
RUN: %clangxx -std=c++20 -Wall -Wextra -Werror -fno-caret-diagnostics \
RUN:   -I%runtime-include %s -o %t/clang 2>&1 | FileCheck %s --check-prefix=CLANG \
RUN:   --implicit-check-not=warning: --implicit-check-not=error: \
RUN:   --implicit-check-not="plugin not loaded"
RUN: %t/clang | FileCheck %s
RUN: %clangxx -std=c++20 -Wall -Werror -DOFFLOAD_QUIET_CPU_FALLBACK \
RUN:   -I%runtime-include %s -fsyntax-only 2>&1 | count 0
RUN: %if gxx %{ not %gxx -std=c++20 -DOFFLOAD_REQUIRE_PLUGIN -I%runtime-include %s \
RUN:   -fsyntax-only 2>&1 | FileCheck %s --check-prefix=REQUIRE %}
RUN: not %clangxx -std=c++20 -DOFFLOAD_REQUIRE_PLUGIN -I%runtime-include %s \
RUN:   -fsyntax-only 2>&1 | FileCheck %s --check-prefix=REQUIRE

Below C++20 the header is one error, nothing from inside it.
RUN: echo '#include <offload/offload.hpp>' > %t/cxx17.cpp
RUN: %if gxx %{ not %gxx -std=c++17 -I%runtime-include %t/cxx17.cpp -fsyntax-only \
RUN:   2>&1 | FileCheck %s --check-prefix=CXX17 --implicit-check-not=error: %}
RUN: not %clangxx -std=c++17 -I%runtime-include %t/cxx17.cpp -fsyntax-only 2>&1 \
RUN:   | FileCheck %s --check-prefix=CXX17 --implicit-check-not=error:
CXX17: offload.hpp:{{[0-9]+}}:{{[0-9]+}}: error: {{(#error )?}}"offload needs -std=c++20 or later"

GXX: note: {{.*}}#pragma message: offload: plugin not loaded; offload() kernels run on the CPU
CLANG: cpu_fallback.hpp:{{[0-9]+}}:{{[0-9]+}}: warning: offload: plugin not loaded; offload() kernels run on the CPU [-W#pragma-messages]
REQUIRE: error: {{(#error )?}}"offload: this build must offload, but the offload plugin is not loaded (add -fplugin=liboffload.so)"
CHECK: iota: last = 999, v[998] = 998, 0 offload devices, handler kept: ok
*/

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#endif
#include <offload/offload.hpp>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#include <cstdio>
#include <vector>

// A T& parameter (by reference, out) next to a span: the default shape
// comes from the span.
[[offload::kernel]] void iota(std::span<int> v, [[offload::out]] int &last) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] = int(i);
  if (i + 1 == v.size())
    last = int(i);
}

static void onError(const char *) {}

int main() {
  std::vector<int> v(1000);
  int last = -1;
  offload(ofld::launch{.grid = {4}, .block = {256}}, iota, v, last);
  ofld::set_default_device(0);
  ofld::wait();
  bool kept = ofld::set_error_handler(onError) == nullptr &&
              ofld::set_error_handler(nullptr) == onError;
  bool ok = last == 999 && v[998] == 998 && ofld::device_count() == 0 && kept;
  std::printf("iota: last = %d, v[998] = %d, %d offload devices, handler "
              "kept: %s\n",
              last, v[998], ofld::device_count(), ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
