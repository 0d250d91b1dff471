// Large ranges that a region or a launch group holds across launches go
// through the same pinned staging as a launch's own (runtime-shim/lib/
// MapPlan.cpp, holdRanges): on the host offload target with the staging
// engine forced on, each is copied once each way it should be, by the
// staging pipeline (logged under LIBOMPTARGET_INFO's data-transfer bit;
// the omp engine's own piece copies through libomptarget are left out),
// and the results are those of plain launches.
//
// RUN: %clangxx %host-target -O2 %s -o %t %link-rt
// RUN: %t | FileCheck %s --check-prefix=RESULT
// RUN: env OFFLOAD_STAGING_ENGINE=omp OFFLOAD_STAGING_MIN=1M %t | FileCheck %s --check-prefix=RESULT
// RUN: env OFFLOAD_STAGING_ENGINE=omp OFFLOAD_STAGING_MIN=1M LIBOMPTARGET_INFO=32 %t 2>&1 \
// RUN:   | grep -e 'pinned staging' -e '^region:' -e '^group:' \
// RUN:   | FileCheck %s --check-prefix=MOVES --implicit-check-not=error
//
// RESULT: region: ok
// RESULT: group: ok
//
// The region: `in` (4 MiB, to) staged in at its beginning, `out` (4 MiB,
// out) staged back at its end; the launches inside copy neither.
// MOVES: Copying data from host to device through pinned staging, {{.*}}Size=4194304
// MOVES-NEXT: Copying data from device to host through pinned staging, {{.*}}Size=4194304
// MOVES-NEXT: region: ok
// The group: `v` staged in before the first launch and back after the last.
// MOVES-NEXT: Copying data from host to device through pinned staging, {{.*}}Size=4194304
// MOVES-NEXT: Copying data from device to host through pinned staging, {{.*}}Size=4194304
// MOVES-NEXT: group: ok

#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void twice(std::span<const float> in, std::span<float> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = 2.0f * in[i] + float(i % 3);
}

[[offload::kernel]] void bump(std::span<float> v, float by) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] += by;
}

int main() {
  constexpr std::size_t N = std::size_t(1) << 20; // 4 MiB of floats
  std::vector<float> in(N, 1.5f), out(N, 0.0f);
  {
    ofld::region resident{std::span<const float>(in), ofld::out(std::span<float>(out))};
    offload(twice, in, out);
    offload(twice, in, out);
  }
  bool ok = out[0] == 3.0f && out[1] == 4.0f && out[N - 1] == 3.0f + float((N - 1) % 3);
  std::printf("region: %s\n", ok ? "ok" : "FAIL");
  std::fflush(stdout); // in order with the runtime's log on stderr

  std::vector<float> v(N, 1.0f);
  offload(bump, v, 1.0f);
  offload(bump, v, 2.0f);
  offload(bump, v, 3.0f);
  ok = v[0] == 7.0f && v[N - 1] == 7.0f;
  std::printf("group: %s\n", ok ? "ok" : "FAIL");
  return 0;
}
