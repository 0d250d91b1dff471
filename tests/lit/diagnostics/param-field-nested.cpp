// Host addresses found through the elements of arrays, std::arrays and
// spans: the path names each step ('[]' for an array). In a class parameter
// (through its arrays and base classes) they are copied as bytes, and a
// read in device code is the error.
#include <array>
#include <span>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

struct Node {
  int value;
  Node *next; // expected-note 5 {{field 'next' declared here}}
};
struct Grid {
  int rows;
  Node cells[4];
};
// CHECK-DAG: param-field-nested.cpp:[[@LINE+1]]:71: error: kernel 'grid' reads field 'next' of 'Node', a pointer copied to the device as bytes: the device cannot follow a host address; make it a 'std::span' field
[[offload::kernel]] void grid(const Grid &g, int &v) { v = g.cells[1].next->value; } // expected-error {{kernel 'grid' reads field 'next' of 'Node', a pointer copied to the device as bytes}}

struct Table {
  std::array<Node, 2> rows[3];
};
// CHECK-DAG: param-field-nested.cpp:[[@LINE+1]]:57: error: kernel 'table' reads field 'next' of 'Node', a pointer
[[offload::kernel]] void table(Table &t) { t.rows[2][1].next = nullptr; } // expected-error {{kernel 'table' reads field 'next' of 'Node', a pointer}}

struct Named {
  const char *name; // expected-note {{field 'name' declared here}}
};
struct Derived : Named {
  int x;
};
// CHECK-DAG: param-field-nested.cpp:[[@LINE+1]]:63: error: kernel 'derived' reads field 'name' of 'Named', a pointer
[[offload::kernel]] void derived(Derived d, char &c) { c = *d.name; } // expected-error {{kernel 'derived' reads field 'name' of 'Named', a pointer}}

// An array or a span of such structs: the element type is named.
// CHECK-DAG: param-field-nested.cpp:[[@LINE+1]]:58: error: kernel parameter 'a': field 'next' of 'Node' is a pointer: the device cannot follow a host pointer; pass the array as a std::span parameter
[[offload::kernel]] void list(const std::array<Node, 2> &a) {} // expected-error {{kernel parameter 'a': field 'next' of 'Node' is a pointer}}
// CHECK-DAG: param-field-nested.cpp:[[@LINE+1]]:40: error: kernel parameter 'a': field 'next' of 'Node' is a pointer: the device cannot follow a host pointer; pass the array as a std::span parameter
[[offload::kernel]] void carray(Node (&a)[3]) {} // expected-error {{kernel parameter 'a': field 'next' of 'Node' is a pointer}}
// CHECK-DAG: param-field-nested.cpp:[[@LINE+1]]:54: error: kernel parameter 's': field 'next' of 'Node' is a pointer: the device cannot follow a host pointer; pass the array as a std::span parameter
[[offload::kernel]] void nodes(std::span<const Node> s) {} // expected-error {{kernel parameter 's': field 'next' of 'Node' is a pointer}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
