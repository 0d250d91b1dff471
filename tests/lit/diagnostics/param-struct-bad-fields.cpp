// A class-type parameter whose fields cannot be copied byte by byte: every
// such field of every parameter is reported in one compile, each with what
// to write instead (a std::vector: a std::span of its elements).
#include <span>
#include <string>
#include <vector>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

struct Names {
  std::string label; // expected-note {{field 'label' declared here}}
};
struct Particles {
  std::span<const float> x;
  std::vector<float> mass; // expected-note {{field 'mass' declared here}}
  Names names;
  std::vector<int> ids; // expected-note {{field 'ids' declared here}}
};
struct Tally {
  std::vector<double> bins; // expected-note {{field 'bins' declared here}}
};
// CHECK: param-struct-bad-fields.cpp:[[@LINE+4]]:48: error: kernel parameter 'p': field 'mass' of 'Particles' has type 'std::vector<float>', whose copy constructor or destructor is not trivial: it cannot be copied to the device byte by byte; make it a 'std::span<float>' viewing the elements
// CHECK: param-struct-bad-fields.cpp:[[@LINE+3]]:48: error: kernel parameter 'p': field 'names.label' of 'Particles' has type 'std::string' (aka 'basic_string<char>'), whose copy constructor or destructor is not trivial: it cannot be copied to the device byte by byte; make it a 'std::span' of the data it holds
// CHECK: param-struct-bad-fields.cpp:[[@LINE+2]]:48: error: kernel parameter 'p': field 'ids' of 'Particles' has type 'std::vector<int>', whose copy constructor or destructor is not trivial: it cannot be copied to the device byte by byte; make it a 'std::span<int>' viewing the elements
// CHECK: param-struct-bad-fields.cpp:[[@LINE+1]]:58: error: kernel parameter 't': field 'bins' of 'Tally' has type 'std::vector<double>', whose copy constructor or destructor is not trivial: it cannot be copied to the device byte by byte; make it a 'std::span<double>' viewing the elements
[[offload::kernel]] void push(const Particles &p, Tally &t) {} // expected-error {{field 'mass' of 'Particles' has type 'std::vector<float>'}} expected-error {{field 'names.label' of 'Particles'}} expected-error {{field 'ids' of 'Particles' has type 'std::vector<int>', whose copy constructor or destructor is not trivial: it cannot be copied to the device byte by byte; make it a 'std::span<int>' viewing the elements}} expected-error {{kernel parameter 't': field 'bins' of 'Tally'}}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
