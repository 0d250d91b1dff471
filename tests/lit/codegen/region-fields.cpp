// `ofld::region r{o}` for a class with std::span fields maps each field's
// range, not the object's bytes. The region reads where the fields lie from
// `__ofld_fields_of<S>` (offload/region.hpp); the plugin annotates each
// specialisation with the class's Aggregate layout (the one a kernel
// parameter of that class gets) and RegionFieldsPass turns it into a
// constant table of `struct __ofld_span_field` rows (runtime_abi.def):
// {data_offset, size_offset, extent, element_bytes, map}, ended by zeros.
//
// RUN: %clangxx %host-target --offload-host-only -O0 -S -emit-llvm %s -o - | FileCheck %s

#include <array>
#include <span>

struct Inner {
  std::span<const double> xs;
};
// x86-64 layout: Inner::xs at 0 (a dynamic span: pointer at +0, size at
// +8), n at 16, acc at 24, fixed at 40 (a static extent: the pointer only),
// pair at 48 (two Inners of 16 bytes).
struct Obj : Inner {
  int n;
  std::span<float> acc;
  [[offload::out]] std::span<int, 4> fixed;
  std::array<Inner, 2> pair;
};
struct Plain {
  int a, b;
};

void f(Obj &o, Plain &p) { ofld::region r{o, p}; }

// CHECK: %struct.__ofld_span_field = type { i64, i64, i64, i64, i64 }
// The table is final (every TU's plugin computes the same one); a class
// without span fields keeps null: the region maps its bytes.
// CHECK-DAG: @_Z16__ofld_fields_ofI3ObjE = linkonce_odr dso_local constant ptr @_Z16__ofld_fields_ofI3ObjE.fields, comdat
// CHECK-DAG: @_Z16__ofld_fields_ofI5PlainE = linkonce_odr dso_local global ptr null, comdat
// Rows: Inner::xs (const double: to = 1); acc (float, tofrom = 3); fixed
// ([[offload::out]], size_offset -1, extent 4: from = 2); pair[0].xs and
// pair[1].xs (to), each at its own offset; then the end.
// CHECK-DAG: @_Z16__ofld_fields_ofI3ObjE.fields = private constant [6 x { i64, i64, i64, i64, i64 }] [{ i64, i64, i64, i64, i64 } { i64 0, i64 8, i64 0, i64 8, i64 1 }, { i64, i64, i64, i64, i64 } { i64 24, i64 32, i64 0, i64 4, i64 3 }, { i64, i64, i64, i64, i64 } { i64 40, i64 -1, i64 4, i64 4, i64 2 }, { i64, i64, i64, i64, i64 } { i64 48, i64 56, i64 0, i64 8, i64 1 }, { i64, i64, i64, i64, i64 } { i64 64, i64 72, i64 0, i64 8, i64 1 }, { i64, i64, i64, i64, i64 } zeroinitializer], comdat($_Z16__ofld_fields_ofI3ObjE)
// The annotation the table comes from: the Aggregate layout, encoded.
// CHECK-DAG: c"offload.fields:v1;name=Obj;{{.*}}params=Al80.{{.*}}:Inner::xs/{{.*}}:acc/{{.*}}:fixed/{{.*}}:pair[0].xs/{{.*}}:pair[1].xs\00"
