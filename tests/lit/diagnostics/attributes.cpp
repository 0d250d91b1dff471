// Where the attributes may appear, and that they take no arguments.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s

[[offload::kernel]] int variable; // expected-error {{'offload::kernel' only applies to functions and function templates}}
struct [[offload::kernel]] Klass {}; // expected-error {{'offload::kernel' only applies to functions and function templates}}
[[offload::out]] int not_a_param; // expected-error {{'offload::out' only applies to kernel parameters}}
__attribute__((offload_kernel)) void gnu_spelling(int) {}
