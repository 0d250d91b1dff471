// Host addresses found through arrays of structs, std::arrays, base classes
// and the elements of a span: the path names each step ('[]' for an array,
// 'Base::' for a base class).
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
// CHECK: param-field-nested.cpp:[[@LINE+1]]:43: error: kernel parameter 'g': field 'cells[].next' of 'Grid' is a pointer: the device cannot follow a host pointer; pass the array as a std::span parameter
[[offload::kernel]] void grid(const Grid &g) {} // expected-error {{kernel parameter 'g': field 'cells[].next' of 'Grid' is a pointer: the device cannot follow a host pointer; pass the array as a std::span parameter}}

struct Table {
  std::array<Node, 2> rows[3];
};
// CHECK: param-field-nested.cpp:[[@LINE+1]]:39: error: kernel parameter 't': field 'rows[][].next' of 'Table' is a pointer: the device cannot follow a host pointer; pass the array as a std::span parameter
[[offload::kernel]] void table(Table &t) {} // expected-error {{kernel parameter 't': field 'rows[][].next' of 'Table' is a pointer}}

struct Named {
  const char *name; // expected-note {{field 'name' declared here}}
};
struct Derived : Named {
  int x;
};
// CHECK: param-field-nested.cpp:[[@LINE+1]]:42: error: kernel parameter 'd': field 'Named::name' of 'Derived' is a pointer: the device cannot follow a host pointer; pass the array as a std::span parameter
[[offload::kernel]] void derived(Derived d) {} // expected-error {{kernel parameter 'd': field 'Named::name' of 'Derived' is a pointer}}

// An array or a span of such structs: the element type is named.
// CHECK: param-field-nested.cpp:[[@LINE+1]]:58: error: kernel parameter 'a': field 'next' of 'Node' is a pointer: the device cannot follow a host pointer; pass the array as a std::span parameter
[[offload::kernel]] void list(const std::array<Node, 2> &a) {} // expected-error {{kernel parameter 'a': field 'next' of 'Node' is a pointer}}
// CHECK: param-field-nested.cpp:[[@LINE+1]]:40: error: kernel parameter 'a': field 'next' of 'Node' is a pointer: the device cannot follow a host pointer; pass the array as a std::span parameter
[[offload::kernel]] void carray(Node (&a)[3]) {} // expected-error {{kernel parameter 'a': field 'next' of 'Node' is a pointer}}
// CHECK: param-field-nested.cpp:[[@LINE+1]]:54: error: kernel parameter 's': field 'next' of 'Node' is a pointer: the device cannot follow a host pointer; pass the array as a std::span parameter
[[offload::kernel]] void nodes(std::span<const Node> s) {} // expected-error {{kernel parameter 's': field 'next' of 'Node' is a pointer}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
