// [[offload::out]] on a span field is an annotation that clang lowers to
// llvm.ptr.annotation at each access of the field; the plugin drops those
// calls (FieldMarkers.h), or the GPU entry's rebuilt struct escapes through
// them and stays in local memory, every thread storing all of its fields.
// With them gone the struct's fields are the entry's slots, as if the spans
// were parameters: no local depot, the results stored to global memory. On
// a parameter the attribute is an llvm.var.annotation of its stack slot,
// which kept the span in local memory too (btree's find_k); dropped as well.
// RUN: %if cuda %{ %clangxx %sm90 --offload-device-only -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NVPTX %}
// RUN: %if cuda %{ %clangxx %sm90 --offload-device-only -O2 -S %s -o - | FileCheck %s --check-prefix=PTX %}
// RUN: %clangxx %host-target --offload-device-only -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NOMARK
// RUN: %clangxx %host-target --offload-host-only -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NOMARK

#include <span>

struct state {
  std::span<const float> a, b, c;
  float scale;
  [[offload::out]] std::span<float> out;
};

[[offload::kernel]] void combine(const state &s) {
  std::size_t i = ofld::global_id();
  if (i < s.out.size())
    s.out[i] = s.scale * (s.a[i] + s.b[i] * s.c[i]);
}

[[offload::kernel]] void lookup(std::span<const int> keys,
                                std::span<const float> table,
                                [[offload::out]] std::span<float> found) {
  std::size_t q = ofld::block_id();
  ofld::sync_threads();
  if (ofld::thread_id() == 0 && q < keys.size())
    found[q] = table[std::size_t(keys[q])];
}

void launch(const state &s, std::span<const int> keys,
            std::span<const float> table, std::span<float> found) {
  offload(ofld::launch{.grid = {unsigned(s.out.size() / 256)}, .block = {256}},
          combine, s);
  offload(ofld::launch{.grid = {unsigned(keys.size())}, .block = {32}}, lookup,
          keys, table, found);
}

// NVPTX-LABEL: define weak_odr protected ptx_kernel void @__ofld__Z7combineRK5state(
// NVPTX-NOT: alloca
// NVPTX-NOT: llvm.ptr.annotation
// NVPTX: ret void
// PTX-LABEL: .entry __ofld__Z7combineRK5state(
// PTX-NOT: __local_depot
// PTX-NOT: st.local
// PTX: st.global.b32
// PTX: ret;
// NVPTX-LABEL: define weak_odr protected ptx_kernel void @__ofld__Z6lookup
// NVPTX-NOT: alloca
// NVPTX-NOT: llvm.var.annotation
// NVPTX: ret void
// PTX-LABEL: .entry __ofld__Z6lookup
// PTX-NOT: __local_depot
// PTX-NOT: st.local
// PTX: st.global.b32
// PTX: ret;
// NOMARK-NOT: llvm.ptr.annotation
// NOMARK-NOT: llvm.var.annotation
// NOMARK-NOT: c"offload.out\00"
