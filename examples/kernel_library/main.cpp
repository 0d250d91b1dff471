//===- main.cpp - kernel templates from a header, launched from two files -===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// main.cpp and stats.cpp both instantiate and launch vec::fill<float> and
// vec::scale<float>; main.cpp also vec::axpy<double>. The program links one
// copy of each kernel instance and runs each from either file.
//
//===----------------------------------------------------------------------===//

#include "vector_ops.hpp"

#include <algorithm>
#include <cstdio>

int main() {
  std::vector<float> f(1000);
  offload(vec::fill<float>, 2.0f, f);
  offload(vec::scale<float>, 1.5f, f); // f = 3
  std::vector<double> x(5000, 1.0), y(5000, 0.25);
  offload(vec::axpy<double>, 0.5, x, y); // y = 0.75

  std::vector<float> g(3000);
  double sum = filled_and_scaled_sum(g, 4.0f, 0.25f); // g = 1: sum 3000

  // Every element (the sum covers g's).
  bool ok =
      std::all_of(f.begin(), f.end(), [](float v) { return v == 3.0f; }) &&
      std::all_of(y.begin(), y.end(), [](double v) { return v == 0.75; }) &&
      sum == 3000.0;
  std::printf("main.cpp: f = %.2f, y = %.2f; stats.cpp: sum = %.1f "
              "(expected 3.00, 0.75, 3000.0): %s\n",
              f.back(), y.back(), sum, ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
