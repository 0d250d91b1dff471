// ofld::copy and ofld::fill move bytes and convert nothing: spans of
// different element types, or a read-only destination, do not compile
// (offload/transfer.hpp), with the plugin and without it.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
// RUN: %clangxx -std=c++20 -DOFFLOAD_QUIET_CPU_FALLBACK -I%runtime-include -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s

#include <offload/offload.hpp>

#include <span>
#include <vector>

void f(std::vector<float> &h, std::vector<double> &d, std::span<const float> c,
       ofld::device_buffer<int> &b) {
  ofld::copy(d, h); // expected-error@*:* {{ofld::copy: the destination and the source have different element types}}
  ofld::copy(b, h); // expected-error@*:* {{ofld::copy: the destination and the source have different element types}}
  ofld::copy(c, h); // expected-error@*:* {{ofld::copy: the destination is read-only}}
  ofld::fill(c, 1.0f); // expected-error@*:* {{ofld::fill: the destination is read-only}}
  ofld::copy(h, c); // a const source is fine
  ofld::copy(b, std::span<const int>(b)); // as is a buffer's own span
}
