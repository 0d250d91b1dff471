// An overload set names no single kernel: the error lists the kernels and
// says how to name one (a cast to its type, here the overload a direct call
// with these arguments would choose); offload<P...>(...) picks one as well.
// RUN: %clangxx %host-target --offload-host-only -fsyntax-only -Xclang -verify %s
// RUN: not %plugin-errors %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %if rewriter %{ not %rewrite-errors 2>&1 | FileCheck %s --check-prefixes=CHECK,REWRITE --implicit-check-not=error: %}

[[offload::kernel]] void scale(int &x) {}   // expected-note 2 {{candidate kernel 'scale' of type 'void (int &)'}}
[[offload::kernel]] void scale(float &x) {} // expected-note 2 {{candidate kernel 'scale' of type 'void (float &)'}}
namespace ns {
[[offload::kernel]] void shift(int &x) {}   // expected-note {{candidate kernel 'shift' of type 'void (int &)'}}
[[offload::kernel]] void shift(float &x) {} // expected-note {{candidate kernel 'shift' of type 'void (float &)'}}
} // namespace ns
void host(int &i, float &f) {
  // CHECK: call-overloaded-kernel.cpp:[[@LINE+1]]:11: error: 'scale' names 2 overloaded kernels and offload() cannot tell which one to launch; name one by its type, as in 'static_cast<void (*)(int &)>(scale)'
  offload(scale, i); // expected-error {{'scale' names 2 overloaded kernels and offload() cannot tell which one to launch; name one by its type, as in 'static_cast<void (*)(int &)>(scale)'}}
  // CHECK: call-overloaded-kernel.cpp:[[@LINE+1]]:11: error: {{.*}} as in 'static_cast<void (*)(float &)>(scale)'
  offload(scale, f); // expected-error {{as in 'static_cast<void (*)(float &)>(scale)'}}
  // CHECK: call-overloaded-kernel.cpp:[[@LINE+1]]:12: error: 'shift' names 2 overloaded kernels and offload() cannot tell which one to launch; name one by its type, as in 'static_cast<void (*)(float &)>(ns::shift)'
  offload(&ns::shift, f); // expected-error {{as in 'static_cast<void (*)(float &)>(ns::shift)'}}
  offload<int &>(scale, i);                          // explicit parameter types pick the overload
  offload(static_cast<void (*)(float &)>(scale), f); // and so does a cast to its type
}
// REWRITE: offload-rewrite: error: errors in the input; no file was changed
