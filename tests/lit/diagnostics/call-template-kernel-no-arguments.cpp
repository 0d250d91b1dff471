// A kernel template named without its template arguments: offload() takes
// the kernel's parameter types from the kernel alone, so they must be
// written. The error says which, deduced from the arguments as a direct
// call would deduce them (a std::vector taken as the std::span offload()
// makes of it), or names the template's parameters where they do not follow.
#include <span>
#include <vector>
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

template <class T> [[offload::kernel]] void scale(std::span<T> y, T a) {}
template <class T> [[offload::kernel]] void sum(std::span<const T> x, std::span<T> out) {}
template <class T, int N> [[offload::kernel]] void fill(std::span<T> y) {}
namespace ns {
template <class T> [[offload::kernel]] void zero(std::span<T> y) {}
} // namespace ns

void host(std::vector<float> &v, std::span<double> s, const std::vector<int> &ci,
          std::vector<int> &i) {
  // CHECK: call-template-kernel-no-arguments.cpp:[[@LINE+1]]:11: error: kernel template 'scale' needs its template arguments at offload(), which takes the kernel's parameter types from the kernel alone; write 'scale<float>'
  offload(scale, v, 2.0f); // expected-error {{kernel template 'scale' needs its template arguments at offload(), which takes the kernel's parameter types from the kernel alone; write 'scale<float>'}}
  // CHECK: call-template-kernel-no-arguments.cpp:[[@LINE+1]]:11: error: {{.*}}; write 'scale<double>'
  offload(scale, s, 1.0); // expected-error {{write 'scale<double>'}}
  // CHECK: call-template-kernel-no-arguments.cpp:[[@LINE+1]]:38: error: {{.*}}; write 'scale<float>'
  offload(ofld::launch{.grid = {4}}, scale, v, 2.0f); // expected-error {{write 'scale<float>'}}
  // CHECK: call-template-kernel-no-arguments.cpp:[[@LINE+1]]:11: error: {{.*}}; write 'sum<int>'
  offload(sum, ci, i); // expected-error {{write 'sum<int>'}}
  // CHECK: call-template-kernel-no-arguments.cpp:[[@LINE+1]]:11: error: kernel template 'fill' needs its template arguments at offload(), which takes the kernel's parameter types from the kernel alone; write 'fill<T, N>' with each template argument named
  offload(fill, v); // expected-error {{write 'fill<T, N>' with each template argument named}}
  // CHECK: call-template-kernel-no-arguments.cpp:[[@LINE+1]]:11: error: kernel template 'zero' needs {{.*}}; write 'ns::zero<double>'
  offload(ns::zero, s); // expected-error {{write 'ns::zero<double>'}}
  offload(scale<float>, v, 2.0f); // named with its arguments: fine
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
