// What the plugin emits matches the runtime's C header: both are expansions
// of offload/runtime_abi.def, and this test compares the two expansions as
// IR. clang lowers offload/runtime.h (Inputs/runtime-abi-header.cpp, no
// plugin); the plugin lowers the calls below, which reach every runtime
// function (a launch group, a loop holding its data, a launch that maps,
// one that does not wait, a reduction).
// A function, parameter, site field, launch mode or dims size that differs
// between the two makes a diff or FileCheck below fail.
//
// RUN: %clangxx %host-target --offload-host-only -O0 -fno-discard-value-names -S -emit-llvm %s -o %t.plugin.ll
// RUN: %clangxx -std=c++20 -O0 -I%runtime-include -S -emit-llvm %S/Inputs/runtime-abi-header.cpp -o %t.header.ll
//
// Every runtime function, as the header declares it and as the plugin does
// (clang's parameter attributes and attribute groups aside):
// RUN: grep -E '^declare .*@__ofld_' %t.header.ll | sed -E -e 's/ noundef//g' -e 's/ #[0-9]+$//' | sort > %t.header.decls
// RUN: sed -E -e 's/.*(@__ofld_[a-z_]+\().*/\1/' %t.header.decls > %t.names
// RUN: grep -E '^declare .*@__ofld_' %t.plugin.ll | grep -F -f %t.names | sed -E -e 's/ noundef//g' -e 's/ #[0-9]+$//' | sort > %t.plugin.decls
// RUN: diff %t.header.decls %t.plugin.decls
// RUN: wc -l < %t.header.decls | FileCheck %s --check-prefix=FUNCTIONS
// FUNCTIONS: 12
//
// The call-site record: `struct __ofld_site` and the plugin's constant.
// RUN: sed -n -E -e 's/^%%struct.__ofld_site = type (.*)/\1/p' %t.header.ll > %t.header.site
// RUN: sed -n -E -e 's/^@\.ofld\.site = private constant (\{[^}]*\}).*/\1/p' %t.plugin.ll | sort -u > %t.plugin.site
// RUN: diff %t.header.site %t.plugin.site
// RUN: wc -l < %t.header.site | FileCheck %s --check-prefix=ONE
// ONE: 1
//
// The dims array and the launch modes the plugin tests: the header's values.
// RUN: sed -n -E -e 's/^@NumDims = .* i32 ([0-9]+),.*/CHECK: %%ofld.dims = alloca [\1 x i32]/p' -e 's/^@ModeSkip = .* i32 ([0-9]+),.*/CHECK: icmp eq i32 %%ofld.mode, \1{{$}}/p' -e 's/^@ModeAsync = .* i32 ([0-9]+),.*/CHECK: icmp eq i32 %%ofld.mode, \1{{$}}/p' %t.header.ll > %t.checks
// RUN: grep -c CHECK %t.checks | FileCheck %s --check-prefix=THREE
// THREE: 3
// RUN: FileCheck %t.checks --input-file %t.plugin.ll
//
// The marker names the plugin looks for are the ones offload.hpp declares.
// RUN: %clangxx -E -P -x c++ -I%runtime-include %S/Inputs/runtime-abi-markers.h | grep . | sort > %t.table.markers
// RUN: grep -oE '__asm__\("[a-z_]+"\)|const char \*__ofld_[a-z_]+ = nullptr' %runtime-include/offload/offload.hpp | sed -E -e 's/__asm__\("([a-z_]+)"\)/\1/' -e 's/const char \*([a-z_]+) = nullptr/\1/' | sort -u > %t.header.markers
// RUN: diff %t.table.markers %t.header.markers
//
// The runtime functions the user headers call are the table's too
// (offload/abi.hpp declares them from it, for libofld_rt and the bridge):
// those ofld::region, ofld::device_buffer, ofld::copy, ofld::fill,
// ofld::properties and the CPU grid call are exactly
// its rows (the fiber switch is the scheduler's own assembly, no runtime
// call).
// RUN: %clangxx -E -P -x c++ -I%runtime-include %S/Inputs/runtime-abi-header-calls.h | grep . | sort > %t.table.calls
// RUN: grep -ohE '__ofld_[a-z_]+\(' %runtime-include/offload/region.hpp %runtime-include/offload/transfer.hpp %runtime-include/offload/properties.hpp %runtime-include/offload/device.hpp %runtime-include/offload/detail/cpu_grid.hpp | tr -d '(' | grep -v '^__ofld_fiber_' | sort -u > %t.header.calls
// RUN: diff %t.table.calls %t.header.calls
// RUN: wc -l < %t.table.calls | FileCheck %s --check-prefix=CALLS
// CALLS: 18

#include <span>
#include <vector>

[[offload::kernel]] void scale(std::span<float> v, float a) {}

void host(std::vector<float> &v) {
  // A launch group: __ofld_group_begin and __ofld_group_end.
  offload(scale, v, 2.0f);
  offload(scale, v, 3.0f);
}

void steps(std::vector<float> &v, int n) {
  // Loop residency: __ofld_loop_hold.
  for (int i = 0; i < n; ++i)
    offload(scale, v, 2.0f);
}

void later(std::span<float> v) {
  offload(ofld::launch{.nowait = true}, scale, v, 4.0f);
}

[[offload::kernel]] void total(std::span<const float> v, ofld::sum<float> &s) {}

float reduce(std::span<const float> v) {
  float s = 0;
  offload(total, v, s);
  return s;
}
