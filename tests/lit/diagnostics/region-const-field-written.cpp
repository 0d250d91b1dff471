// The region constness warning (region-const-written.cpp) per span field of
// a struct: a region maps a field's data to the device only and a launch
// writes it, through a non-const span field of a struct parameter or a span
// parameter. Fields are matched by their path from one variable (`s.acc`,
// `s.inner.acc`). A region holding the struct itself maps each field by its
// type: launches taking the struct write only fields the region maps both
// ways, so they are fine. (offload-rewrite refuses struct parameters yet:
// no rewriter run here.)
#include <span>
#include <vector>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=warning:

struct Inner {
  std::span<float> acc;
};
struct State {
  std::span<const float> energy;
  std::span<float> acc;
  Inner inner;
};

[[offload::kernel]] void accumulate(const State &s) {}
[[offload::kernel]] void set_one(std::span<float> v) {}
[[offload::kernel]] void read(std::span<const float> v) {}

void host(State &s) {
  ofld::region r{std::span<const float>(s.acc)}; // expected-note {{'s.acc' is mapped to the device only here}}
  // CHECK: region-const-field-written.cpp:[[@LINE+2]]:23: warning: kernel 'accumulate' writes through parameter 's' into 's.acc', which ofld::region 'r' maps to the device only (std::span<const T>); the region copies it back at its end, as if it were std::span<T>
  // CHECK-NEXT: region-const-field-written.cpp:[[@LINE-2]]:18: note: 's.acc' is mapped to the device only here
  offload(accumulate, s); // expected-warning {{kernel 'accumulate' writes through parameter 's' into 's.acc', which ofld::region 'r' maps to the device only (std::span<const T>)}}
  offload(read, s.acc); // reads: fine
}

void nested(State &s) {
  ofld::region r{std::span<const float>(s.inner.acc)}; // expected-note 2 {{'s.inner.acc' is mapped to the device only here}}
  // CHECK: region-const-field-written.cpp:[[@LINE+2]]:23: warning: kernel 'accumulate' writes through parameter 's' into 's.inner.acc'
  // CHECK-NEXT: region-const-field-written.cpp:[[@LINE-2]]:18: note: 's.inner.acc' is mapped to the device only here
  offload(accumulate, s); // expected-warning {{kernel 'accumulate' writes through parameter 's' into 's.inner.acc', which ofld::region 'r' maps to the device only}}
  // CHECK: region-const-field-written.cpp:[[@LINE+2]]:20: warning: kernel 'set_one' writes through parameter 'v' into 's.inner.acc'
  // CHECK-NEXT: region-const-field-written.cpp:[[@LINE-5]]:18: note: 's.inner.acc' is mapped to the device only here
  offload(set_one, s.inner.acc); // expected-warning {{kernel 'set_one' writes through parameter 'v' into 's.inner.acc', which ofld::region 'r' maps to the device only}}
}

void whole(State &s, State &t) {
  ofld::region r{s, std::span<const float>(t.acc)};
  offload(accumulate, s); // s's fields are mapped by their types: fine
  offload(set_one, s.acc); // s.acc is mapped both ways: fine
}
