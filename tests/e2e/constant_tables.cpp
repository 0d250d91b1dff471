//===- constant_tables.cpp - end-to-end: constants at namespace and class scope -===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//
//
// Kernels read constant tables declared outside them, in every form C++
// spells one, public, private and protected: the device image gets its own
// copy of each (declare target, implicitly). Every element is compared with the host's reading of the
// same tables; the values are small integers and multiples of 1/8, so the
// sums are exact on every target.
//
//===----------------------------------------------------------------------===//

#include <array>
#include <cstdio>
#include <span>
#include <vector>

constexpr std::array<int, 8> perm{7, 3, 5, 1, 6, 2, 4, 0};
const float weights[5] = {0.125f, 0.25f, 0.5f, 0.25f, 0.125f};
constexpr int small[4] = {1, 2, 3, 4};
inline constexpr std::array<short, 3> shared_steps{11, 22, 33};
constexpr const float *weights_view = weights; // a constant's address

struct Stencil {
  static constexpr std::array<float, 3> taps{0.5f, 1.0f, 1.5f};
  static constexpr int offsets[3] = {-1, 0, 1};
  static const int scale;
  static int secret(std::size_t i) { return hidden[i % 4] + Inner::odd[i % 2]; }

private:
  static constexpr int hidden[4] = {40, 30, 20, 10};
  struct Inner {
    static const int odd[2];
  };
};
const int Stencil::scale = 3;
const int Stencil::Inner::odd[2] = {100, 300};

template <int N> struct Squares {
  static constexpr std::array<int, N> values = [] {
    std::array<int, N> a{};
    for (int i = 0; i < N; ++i)
      a[i] = i * i;
    return a;
  }();
  static int cube(std::size_t i) { return cubes[i % N]; }

protected:
  static constexpr std::array<int, N> cubes = [] {
    std::array<int, N> a{};
    for (int i = 0; i < N; ++i)
      a[i] = i * i * i;
    return a;
  }();
};
template <class T> constexpr T bias = T(2.5);

struct Entry {
  int id;
  float gain;
};
constexpr Entry entries[3] = {{7, 0.5f}, {9, 1.5f}, {13, 2.0f}};
constexpr const char *names[3] = {"alpha", "beta", "gamma"};

namespace tables {
constexpr unsigned char lut[6] = {5, 4, 3, 2, 1, 0};
}

/// Reached only through a call: its tables must be on the device too.
int from_helper(std::size_t i) {
  return tables::lut[i % 6] + Stencil::offsets[i % 3] * Stencil::scale;
}

/// The same formula on both sides; `T` only to have a kernel template.
template <class T> T value(std::size_t i) {
  T v = T(perm[i % 8]) + T(weights[i % 5]) + T(small[i % 4]) +
        T(shared_steps[i % 3]) + T(weights_view[(i + 1) % 5]) +
        T(Stencil::taps[i % 3]) + T(Squares<5>::values[i % 5]) +
        bias<T> + T(entries[i % 3].id) * T(entries[i % 3].gain) +
        T(names[i % 3][i % 4]) + T(from_helper(i)) + T(Stencil::secret(i)) +
        T(Squares<5>::cube(i));
  return v;
}

[[offload::kernel]] void read_tables(std::span<float> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = value<float>(i);
}

template <class T> [[offload::kernel]] void read_tables_t(std::span<T> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = value<T>(i) + T(perm[(i + 3) % 8]);
}

int main() {
  constexpr std::size_t N = 1000;
  std::vector<float> a(N, -1.0f);
  std::vector<double> b(N, -1.0);
  offload(read_tables, a);
  offload(read_tables_t<double>, b);
  int bad = 0;
  for (std::size_t i = 0; i < N; ++i) {
    float ea = value<float>(i);
    double eb = value<double>(i) + double(perm[(i + 3) % 8]);
    if (a[i] != ea || b[i] != eb) {
      if (bad++ < 5)
        std::printf("FAIL at %zu: %g (expected %g), %g (expected %g)\n", i,
                    a[i], ea, b[i], eb);
    }
  }
  std::printf("a[0] = %g a[999] = %g b[999] = %g: %s\n", a[0], a[N - 1],
              b[N - 1], bad ? "FAIL" : "ok");
  return bad ? 1 : 0;
}
