// Constants in a header that two translation units' kernels read: inline
// variables are one object per program, and so one copy per device image.
#pragma once
#include <array>

inline constexpr std::array<int, 4> shared_steps{10, 20, 30, 40};
struct Shared {
  static constexpr std::array<float, 3> taps{0.5f, 0.25f, 0.125f};
};
constexpr int per_file[2] = {3, 4}; // internal: a copy per file
