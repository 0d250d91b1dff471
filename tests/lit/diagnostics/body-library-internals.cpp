// The library's inline functions and templates run on the device, and so
// must what they call: what throws (std::vector::push_back, std::string,
// std::array::at, std::optional::value) or needs the host's compiled
// library (std::hash, std::this_thread::yield) is reported at the kernel's
// call into the library, once per call. Algorithms, std::array, std::span
// and std::optional's non-throwing members are fine, and a user callback the
// library calls is checked like any function.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

#include <algorithm>
#include <array>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

int host_weight(int); // defined in another file
bool by_weight(int a, int b);

[[offload::kernel]] void fine(std::span<int> v) {
  std::array<int, 4> a{4, 3, 2, 1};
  std::sort(a.begin(), a.end());
  std::sort(a.begin(), a.end(), [](int x, int y) { return x > y; });
  std::optional<int> o = v[1];
  v[0] = a[1] + std::min(v[0], 3) + std::max({1, 2, 3}) + *o + o.value_or(2);
  std::span<int> head = v.subspan(0, 1);
  head[0] += 1;
}

[[offload::kernel]] void throwing(std::span<int> v) {
  std::vector<int> w;
  // CHECK: body-library-internals.cpp:[[@LINE+1]]:5: error: kernel 'throwing' calls 'std::vector<int>::push_back', which can throw an exception: device code has no exception handling (a device would abort, or fail to link); check the condition in the kernel and report failures through an output parameter
  w.push_back(v[0]); // expected-error {{kernel 'throwing' calls 'std::vector<int>::push_back', which can throw an exception: device code has no exception handling (a device would abort, or fail to link); check the condition in the kernel and report failures through an output parameter}}
  // CHECK: body-library-internals.cpp:[[@LINE+1]]:19: error: kernel 'throwing' calls 'std::basic_string<char>::basic_string', which can throw an exception: device code has no exception handling (a device would abort, or fail to link); check the condition in the kernel and report failures through an output parameter
  std::string s = "abc"; // expected-error {{kernel 'throwing' calls 'std::basic_string<char>::basic_string', which can throw an exception}}
  std::array<int, 4> a{};
  // CHECK: body-library-internals.cpp:[[@LINE+1]]:35: error: kernel 'throwing' calls 'std::array<int, 4>::at', which can throw an exception: device code has no exception handling (a device would abort, or fail to link); check the condition in the kernel and report failures through an output parameter
  v[0] = int(s.size()) + w[0] + a.at(v[1]); // expected-error {{kernel 'throwing' calls 'std::array<int, 4>::at', which can throw an exception}}
  std::optional<int> o;
  // CHECK: body-library-internals.cpp:[[@LINE+1]]:12: error: kernel 'throwing' calls 'std::optional<int>::value', which can throw an exception: device code has no exception handling (a device would abort, or fail to link); check the condition in the kernel and report failures through an output parameter
  v[1] = o.value(); // expected-error {{kernel 'throwing' calls 'std::optional<int>::value', which can throw an exception}}
}

[[offload::kernel]] void compiled(std::span<int> v) {
  // CHECK: body-library-internals.cpp:[[@LINE+1]]:14: error: kernel 'compiled' calls 'std::hash<double>::operator()', which needs 'std::_Hash_bytes', a host library function that no device provides: this part of the library cannot run in device code
  v[0] = int(std::hash<double>{}(v[1])); // expected-error {{kernel 'compiled' calls 'std::hash<double>::operator()', which needs 'std::_Hash_bytes', a host library function that no device provides: this part of the library cannot run in device code}}
  // CHECK: body-library-internals.cpp:[[@LINE+1]]:3: error: kernel 'compiled' calls 'std::this_thread::yield', which needs 'sched_yield', a host library function that no device provides: this part of the library cannot run in device code
  std::this_thread::yield(); // expected-error {{kernel 'compiled' calls 'std::this_thread::yield', which needs 'sched_yield', a host library function that no device provides}}
  std::sort(v.begin(), v.end(), by_weight); // expected-note 2 {{'by_weight' is called from 'compiled' here}}
}

bool by_weight(int a, int b) {
  // CHECK: body-library-internals.cpp:[[@LINE+2]]:10: error: kernel 'compiled' calls 'host_weight', which has no definition in this translation unit: device code can only call functions compiled with it; define 'host_weight' in this file or a header it includes, or declare it inside '#pragma omp declare target' when a device definition is linked in
  // CHECK: body-library-internals.cpp:[[@LINE+1]]:27: error: kernel 'compiled' calls 'host_weight', which has no definition in this translation unit: device code can only call functions compiled with it; define 'host_weight' in this file or a header it includes, or declare it inside '#pragma omp declare target' when a device definition is linked in
  return host_weight(a) < host_weight(b); // expected-error 2 {{kernel 'compiled' calls 'host_weight', which has no definition in this translation unit}}
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
