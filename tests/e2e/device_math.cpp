//===- device_math.cpp - end-to-end: the device math library against libm ===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//
//
// Conformance of math in kernels (docs/DeviceLibrary.md): every function of
// <cmath> that kernels use, float and double, on about two thousand inputs
// each (random over the function's domain plus edge cases: zeros, infinities,
// NaN, subnormals, the largest values), computed in a kernel and compared
// with the host's libm one precision up (double for float, long double for
// double), in ulps of the result. The bounds are per function and target:
// CUDA's documented maxima on GPUs, glibc's measured ones on CPUs (the host
// offload target runs libm itself), each with one ulp of headroom for the
// reference's own rounding and for boundary cases. Exact functions (rounding, fmod, fma, frexp...) must match bit for
// bit. Also: integer std::abs, std::min/max/clamp, std::numeric_limits,
// INFINITY/NAN, std::complex arithmetic, C names (sinf) next to std::
// overloads, ofld::rsqrt. Prints one row per function and type; exits 1 if
// any exceeds its bound.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <math.h>
#include <span>
#include <vector>

// Where kernels run, as the kernel itself sees it.
enum Target { CPU = 0, NVIDIA = 1, AMD = 2 };

[[offload::kernel]] void where(std::span<int> out) {
#if defined(__NVPTX__)
  out[0] = NVIDIA;
#elif defined(__AMDGPU__)
  out[0] = AMD;
#else
  out[0] = CPU;
#endif
}

//===----------------------------------------------------------------------===//
// The functions
//===----------------------------------------------------------------------===//

enum Fn1 {
  Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Tanh, Asinh, Acosh, Atanh,
  Exp, Exp2, Expm1, Log, Log2, Log10, Log1p, Sqrt, Rsqrt, Cbrt, Erf, Erfc,
  Tgamma, Lgamma, Floor, Ceil, Trunc, Round, Fabs, NumFn1
};
enum Fn2 { Atan2, Pow, Fmod, Remainder, Fmin, Fmax, Copysign, Hypot, NumFn2 };

template <class T> T apply1(int f, T x) {
  switch (f) {
  case Sin: return std::sin(x);
  case Cos: return std::cos(x);
  case Tan: return std::tan(x);
  case Asin: return std::asin(x);
  case Acos: return std::acos(x);
  case Atan: return std::atan(x);
  case Sinh: return std::sinh(x);
  case Cosh: return std::cosh(x);
  case Tanh: return std::tanh(x);
  case Asinh: return std::asinh(x);
  case Acosh: return std::acosh(x);
  case Atanh: return std::atanh(x);
  case Exp: return std::exp(x);
  case Exp2: return std::exp2(x);
  case Expm1: return std::expm1(x);
  case Log: return std::log(x);
  case Log2: return std::log2(x);
  case Log10: return std::log10(x);
  case Log1p: return std::log1p(x);
  case Sqrt: return std::sqrt(x);
  case Rsqrt:
    if constexpr (sizeof(T) <= sizeof(double))
      return ofld::rsqrt(x);
    else // the host's reference
      return 1 / std::sqrt(x);
  case Cbrt: return std::cbrt(x);
  case Erf: return std::erf(x);
  case Erfc: return std::erfc(x);
  case Tgamma: return std::tgamma(x);
  case Lgamma: return std::lgamma(x);
  case Floor: return std::floor(x);
  case Ceil: return std::ceil(x);
  case Trunc: return std::trunc(x);
  case Round: return std::round(x);
  case Fabs: return std::fabs(x);
  }
  return x;
}

template <class T> T apply2(int f, T x, T y) {
  switch (f) {
  case Atan2: return std::atan2(x, y);
  case Pow: return std::pow(x, y);
  case Fmod: return std::fmod(x, y);
  case Remainder: return std::remainder(x, y);
  case Fmin: return std::fmin(x, y);
  case Fmax: return std::fmax(x, y);
  case Copysign: return std::copysign(x, y);
  case Hypot: return std::hypot(x, y);
  }
  return x;
}

// The launches below sit in function templates, which offload-rewrite
// leaves as they are: their grid is written out, as a build without the
// plugin needs (one thread per element, the kernels' own bound).
inline ofld::launch grid(std::size_t n) { return {.grid = {(n + 255) / 256}}; }

template <class T>
[[offload::kernel]] void unary(int f, std::span<const T> x, std::span<T> y) {
  std::size_t i = ofld::global_id();
  if (i < x.size())
    y[i] = apply1(f, x[i]);
}

template <class T>
[[offload::kernel]] void binary(int f, std::span<const T> x,
                                std::span<const T> y, std::span<T> z) {
  std::size_t i = ofld::global_id();
  if (i < x.size())
    z[i] = apply2(f, x[i], y[i]);
}

/// fma, frexp and modf through their pointer arguments (into global memory
/// and into a local), ldexp, and the classification functions.
template <class T>
[[offload::kernel]] void exact(std::span<const T> a, std::span<const T> b,
                               std::span<const T> c, std::span<const int> n,
                               std::span<T> fma, std::span<T> mant,
                               std::span<int> expo, std::span<T> frac,
                               std::span<T> whole, std::span<T> scaled,
                               std::span<int> cls) {
  std::size_t i = ofld::global_id();
  if (i >= a.size())
    return;
  fma[i] = std::fma(a[i], b[i], c[i]);
  mant[i] = std::frexp(a[i], &expo[i]);
  T w;
  frac[i] = std::modf(a[i], &w);
  whole[i] = w;
  scaled[i] = std::ldexp(a[i], n[i]);
  cls[i] = int(std::isnan(a[i])) | int(std::isinf(a[i])) << 1 |
           int(std::isfinite(a[i])) << 2 | int(std::signbit(a[i])) << 3;
}

/// The C names of <math.h> next to the std:: overloads.
[[offload::kernel]] void c_names(std::span<const float> x,
                                 std::span<const double> d,
                                 std::span<float> xf, std::span<double> xd) {
  std::size_t i = ofld::global_id();
  if (i >= x.size())
    return;
  xf[2 * i] = sinf(x[i]) + expf(x[i]) * cbrtf(x[i]) - powf(fabsf(x[i]), 0.3f);
  xf[2 * i + 1] = std::sin(x[i]) + std::exp(x[i]) * std::cbrt(x[i]) -
                  std::pow(std::fabs(x[i]), 0.3f);
  xd[2 * i] = ::sin(d[i]) + ::exp(d[i]) * ::cbrt(d[i]) - ::pow(::fabs(d[i]), 0.3);
  xd[2 * i + 1] = std::sin(d[i]) + std::exp(d[i]) * std::cbrt(d[i]) -
                  std::pow(std::fabs(d[i]), 0.3);
}

/// Integer std::abs, std::min/max/clamp, numeric_limits, INFINITY, NAN.
[[offload::kernel]] void utilities(std::span<const int> k,
                                   std::span<long long> ints,
                                   std::span<float> fl, std::span<double> db) {
  std::size_t i = ofld::global_id();
  if (i < k.size()) {
    long long v = k[i];
    ints[8 * i] = std::abs(k[i]);
    ints[8 * i + 1] = std::abs(long(v) * 4000000L);
    ints[8 * i + 2] = std::abs(v * -3000000000LL);
    ints[8 * i + 3] = std::min(k[i], 7);
    ints[8 * i + 4] = std::max(k[i], -7);
    ints[8 * i + 5] = std::clamp(k[i], -100, 100);
    ints[8 * i + 6] = std::min({k[i], 3, -2});
    ints[8 * i + 7] = std::clamp<long long>(v * 1000, -5000, 5000);
    fl[3 * i] = std::min(float(k[i]) * 0.5f, 1.5f);
    fl[3 * i + 1] = std::max(float(k[i]) * 0.5f, -1.5f);
    fl[3 * i + 2] = std::clamp(float(k[i]) * 0.25f, -2.0f, 2.0f);
    db[3 * i] = std::min(double(k[i]) * 0.5, 1.5);
    db[3 * i + 1] = std::max(double(k[i]) * 0.5, -1.5);
    db[3 * i + 2] = std::clamp(double(k[i]) * 0.25, -2.0, 2.0);
  }
  if (i == 0) {
    std::size_t o = 3 * k.size();
    using F = std::numeric_limits<float>;
    using D = std::numeric_limits<double>;
    float lf[] = {F::epsilon(), F::min(),     F::max(),         F::lowest(),
                  F::denorm_min(), F::infinity(), F::quiet_NaN(), INFINITY,
                  NAN,          float(F::digits), float(F::max_exponent)};
    double ld[] = {D::epsilon(), D::min(),     D::max(),         D::lowest(),
                   D::denorm_min(), D::infinity(), D::quiet_NaN(), HUGE_VAL,
                   double(NAN),  double(D::digits), double(D::max_exponent)};
    for (int j = 0; j < 11; ++j) {
      fl[o + j] = lf[j];
      db[o + j] = ld[j];
    }
  }
}

/// std::complex arithmetic: +, -, *, / (clang calls __mulsc3 and __divsc3
/// for the last two), and abs, conj, norm.
template <class T>
[[offload::kernel]] void complex_ops(std::span<const std::complex<T>> a,
                                     std::span<const std::complex<T>> b,
                                     std::span<std::complex<T>> out) {
  std::size_t i = ofld::global_id();
  if (i >= a.size())
    return;
  out[6 * i] = a[i] + b[i];
  out[6 * i + 1] = a[i] - b[i];
  out[6 * i + 2] = a[i] * b[i];
  out[6 * i + 3] = a[i] / b[i];
  out[6 * i + 4] = std::conj(a[i]) * T(2);
  out[6 * i + 5] = {std::abs(a[i]), std::norm(b[i])};
}

//===----------------------------------------------------------------------===//
// Host side: inputs, references, ulps
//===----------------------------------------------------------------------===//

namespace {

using ld = long double;

struct Rng {
  std::uint64_t s;
  double next() { // [0, 1)
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    return double(s >> 11) * 0x1p-53;
  }
  double in(double lo, double hi) { return lo + (hi - lo) * next(); }
  /// |x| log-uniform in [lo, hi], either sign if `both`.
  double mag(double lo, double hi, bool both) {
    double v = std::exp(std::log(lo) + (std::log(hi) - std::log(lo)) * next());
    return both && next() < 0.5 ? -v : v;
  }
};

template <class T> std::vector<T> edges() {
  using L = std::numeric_limits<T>;
  return {T(0),          -T(0),          T(1),           T(-1),
          T(0.5),        T(-0.5),        T(2),           T(1.5),
          T(-2.5),       T(3),           L::infinity(),  -L::infinity(),
          L::quiet_NaN(), L::denorm_min(), -L::denorm_min(), L::min(),
          -L::min(),     L::max(),       L::lowest(),    T(1e-7),
          T(100),        T(-100)};
}

/// Inputs of a unary function: random over its domain, then edge cases.
template <class T> std::vector<T> inputs1(int f, int n, Rng &r) {
  bool F = sizeof(T) == 4;
  std::vector<T> v;
  auto add = [&](double x) { v.push_back(T(x)); };
  for (int i = 0; i < n; ++i) {
    switch (f) {
    case Sin: case Cos: case Tan:
      add(i % 4 ? r.in(-10, 10) : r.mag(1e-6, F ? 1e6 : 1e12, true));
      break;
    case Asin: case Acos: add(r.in(-1, 1)); break;
    case Atan: case Asinh: case Cbrt:
      add(r.mag(1e-6, F ? 1e30 : 1e300, true));
      break;
    case Sinh: case Cosh: add(r.in(F ? -88 : -709, F ? 88 : 709)); break;
    case Tanh: case Erf: add(r.in(-6, 6)); break;
    case Acosh: add(1 + r.mag(1e-7, F ? 1e30 : 1e300, false)); break;
    case Atanh: add(r.in(-1, 1)); break;
    case Exp: add(r.in(F ? -103 : -744, F ? 88 : 709)); break;
    case Exp2: add(r.in(F ? -149 : -1074, F ? 127 : 1023)); break;
    case Expm1: add(i % 2 ? r.in(F ? -20 : -40, F ? 88 : 709)
                          : r.mag(1e-8, 1, true));
      break;
    case Log: case Log2: case Log10: case Sqrt: case Rsqrt:
      add(r.mag(F ? 1e-44 : 1e-320, F ? 1e38 : 1e308, false));
      break;
    case Log1p: add(i % 2 ? r.mag(1e-8, 1, true) * 0.999999 : r.mag(1, 1e30, false));
      break;
    case Erfc: add(r.in(-6, F ? 10 : 27)); break;
    case Tgamma:
      add(i % 8 ? r.in(0.01, F ? 35 : 171) : -r.in(0, 30) - 0.5 + 0.25 * r.in(-1, 1));
      break;
    case Lgamma:
      add(i % 8 ? r.mag(0.01, F ? 1e30 : 1e300, false)
                : -r.in(F ? 11 : 24, 100) - 0.5 + 0.25 * r.in(-1, 1));
      break;
    case Floor: case Ceil: case Trunc: case Round:
      add(i % 4 ? std::round(r.in(-1e6, 1e6) * 4) / 4 : r.mag(1e-3, 1e30, true));
      break;
    default: add(r.mag(1e-30, 1e30, true)); break;
    }
  }
  for (T e : edges<T>())
    v.push_back(e);
  return v;
}

template <class T>
void inputs2(int f, int n, Rng &r, std::vector<T> &x, std::vector<T> &y) {
  bool F = sizeof(T) == 4;
  for (int i = 0; i < n; ++i) {
    double a, b;
    switch (f) {
    case Pow: // keep |b log2 a| in range, with negative bases for integers
      a = r.mag(1e-3, 1e3, false);
      b = r.in(-1, 1) * (F ? 120 : 1000) / std::max(1.0, std::fabs(std::log2(a)));
      if (i % 4 == 0) {
        a = -a;
        b = std::round(b);
      }
      break;
    case Fmod: case Remainder:
      a = r.mag(1e-10, 1e10, true);
      b = r.mag(1e-10, 1e10, true);
      break;
    default:
      a = r.mag(1e-20, 1e20, true);
      b = r.mag(1e-20, 1e20, true);
      break;
    }
    x.push_back(T(a));
    y.push_back(T(b));
  }
  std::vector<T> e = edges<T>();
  for (T a : e)
    for (T b : {T(0), -T(0), T(1), T(-1), T(2.5), T(-3),
                std::numeric_limits<T>::infinity(),
                -std::numeric_limits<T>::infinity(),
                std::numeric_limits<T>::quiet_NaN()}) {
      x.push_back(a);
      y.push_back(b);
    }
}

/// The reference: libm one precision up.
template <class T> ld ref1(int f, T x) {
  using U = std::conditional_t<sizeof(T) == 4, double, ld>;
  return f == Rsqrt ? ld(1) / std::sqrt(ld(x)) : ld(apply1(f, U(x)));
}
template <class T> ld ref2(int f, T x, T y) {
  using U = std::conditional_t<sizeof(T) == 4, double, ld>;
  return apply2(f, U(x), U(y));
}

/// |got - ref| in ulps of T at the reference (subnormal ulps below the normal
/// range); NaN against NaN and equal infinities are 0, any other disagreement
/// on special values is infinite. A reference that overflows T must come out
/// infinite.
template <class T> double ulps(T got, ld ref) {
  using L = std::numeric_limits<T>;
  const double Never = INFINITY;
  if (std::isnan(ref))
    return std::isnan(got) ? 0 : Never;
  if (std::isinf(ref) || std::fabs(ref) > ld(L::max()) * (1 + ld(L::epsilon()) / 2))
    return got == T(ref) ? 0 : Never;
  if (std::isnan(got) || std::isinf(got))
    return Never;
  if (ref == 0)
    return got == 0 ? (std::signbit(got) != std::signbit(ref))
                    : std::fabs(ld(got)) / ld(L::denorm_min());
  int e = std::max(std::ilogb(ref), L::min_exponent - 1);
  ld ulp = std::ldexp(ld(1), e - (L::digits - 1));
  return double(std::fabs(ld(got) - ref) / ulp);
}

template <class T> bool same(T a, T b) {
  return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0;
}

struct Bound {
  const char *name;
  double gpu, cpu;   // float: max ulps
  double gpuD, cpuD; // double
};

// GPUs: CUDA's documented maxima (CUDA C++ Programming Guide, "Mathematical
// Functions", libdevice with -prec-div/-prec-sqrt, no FTZ), also applied to
// AMD GPUs, where nothing has run. CPUs: glibc 2.36 on x86-64 as measured by
// this test with 200000 inputs per function, rounded up. 0: the result must
// equal the host's libm bit for bit (correctly rounded or exact). The check
// adds one ulp of headroom to the others (docs/DeviceLibrary.md).
const Bound Bounds1[NumFn1] = {
    {"sin", 2, 1, 2, 1},      {"cos", 2, 1, 2, 1},      {"tan", 4, 1, 2, 1},
    {"asin", 2, 1, 2, 1},     {"acos", 2, 1, 2, 1},     {"atan", 2, 1, 2, 1},
    {"sinh", 3, 2, 2, 2},     {"cosh", 2, 1, 1, 1},     {"tanh", 2, 3, 1, 3},
    {"asinh", 3, 2, 3, 2},    {"acosh", 4, 2, 3, 2},    {"atanh", 3, 2, 2, 2},
    {"exp", 2, 1, 1, 1},      {"exp2", 2, 1, 1, 1},     {"expm1", 1, 1, 1, 1},
    {"log", 1, 1, 1, 1},      {"log2", 1, 1, 1, 1},     {"log10", 2, 2, 1, 2},
    {"log1p", 1, 1, 1, 1},    {"sqrt", 0, 0, 0, 0},     {"rsqrt", 2, 2, 1, 2},
    {"cbrt", 1, 1, 1, 3},     {"erf", 2, 1, 2, 1},      {"erfc", 4, 3, 5, 3},
    {"tgamma", 5, 6, 10, 6},  {"lgamma", 6, 3, 4, 3},   {"floor", 0, 0, 0, 0},
    {"ceil", 0, 0, 0, 0},     {"trunc", 0, 0, 0, 0},    {"round", 0, 0, 0, 0},
    {"fabs", 0, 0, 0, 0}};
const Bound Bounds2[NumFn2] = {
    {"atan2", 3, 2, 2, 1},    {"pow", 4, 1, 2, 1},      {"fmod", 0, 0, 0, 0},
    {"remainder", 0, 0, 0, 0}, {"fmin", 0, 0, 0, 0},    {"fmax", 0, 0, 0, 0},
    {"copysign", 0, 0, 0, 0}, {"hypot", 3, 1, 2, 1}};

double boundOf(const Bound &b, bool isFloat, Target t) {
  double v = t == CPU ? (isFloat ? b.cpu : b.cpuD) : (isFloat ? b.gpu : b.gpuD);
  return v == 0 ? 0 : v + 1;
}

int failures = 0;

/// Random inputs per function (argv[1]; more measure the maxima better).
int Samples = 2048;

/// One row: the worst error in ulps against its bound; for exact functions
/// (bound 0) whether any result differs from the host's.
void row(const char *name, const char *type, std::size_t n, double worst,
         double bound, double at) {
  bool ok = worst <= bound;
  failures += !ok;
  if (bound == 0)
    std::printf("%-10s %-6s %6zu  %s %-22s  %s", name, type, n,
                worst ? "differs from libm" : "exact", "", ok ? "ok" : "FAIL");
  else
    std::printf("%-10s %-6s %6zu  max %8.3g ulp  bound %4g  %s", name, type,
                n, worst, bound, ok ? "ok" : "FAIL");
  if (!ok)
    std::printf("  (at x = %.17g)", at);
  std::printf("\n");
}

template <class T> void checkUnary(Target t, Rng &r) {
  const char *type = sizeof(T) == 4 ? "float" : "double";
  for (int f = 0; f < NumFn1; ++f) {
    std::vector<T> x = inputs1<T>(f, Samples, r), y(x.size());
    offload(grid(x.size()), unary<T>, f, x, y);
    double bound = boundOf(Bounds1[f], sizeof(T) == 4, t);
    double worst = 0, at = 0, inside = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      double u = bound == 0 ? !same(y[i], apply1(f, x[i]))
                            : ulps(y[i], ref1(f, x[i]));
      // CUDA bounds lgamma outside (-10.001, -2.264) for float and
      // (-23.0001, -2.2637) for double only, "larger inside": measured apart.
      if (f == Lgamma && t != CPU && x[i] < T(-2.2637) &&
          x[i] > T(sizeof(T) == 4 ? -10.001 : -23.0001)) {
        inside = std::max(inside, u);
        continue;
      }
      if (!(u <= worst)) // NaN counts as worst
        worst = u, at = double(x[i]);
    }
    row(Bounds1[f].name, type, x.size(), worst, bound, at);
    if (inside > 0)
      std::printf("%-10s %-6s         %8.3g ulp inside CUDA's excluded "
                  "interval (no bound)\n",
                  "lgamma", type, inside);
  }
}

template <class T> void checkBinary(Target t, Rng &r) {
  const char *type = sizeof(T) == 4 ? "float" : "double";
  for (int f = 0; f < NumFn2; ++f) {
    std::vector<T> x, y;
    inputs2<T>(f, Samples, r, x, y);
    std::vector<T> z(x.size());
    offload(grid(x.size()), binary<T>, f, x, y, z);
    double bound = boundOf(Bounds2[f], sizeof(T) == 4, t);
    double worst = 0, at = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      T want = apply2(f, x[i], y[i]);
      // fmin/fmax of +0 and -0 may return either (C17 F.10.9.2).
      bool zeros = (f == Fmin || f == Fmax) && z[i] == 0 && want == 0;
      double u = bound == 0 ? !(same(z[i], want) || zeros)
                            : ulps(z[i], ref2(f, x[i], y[i]));
      if (!(u <= worst))
        worst = u, at = double(x[i]);
    }
    row(Bounds2[f].name, type, x.size(), worst, bound, at);
  }
}

template <class T> void checkExact(Rng &r) {
  const char *type = sizeof(T) == 4 ? "float" : "double";
  std::vector<T> a, b, c;
  std::vector<int> n;
  for (int i = 0; i < Samples; ++i) {
    a.push_back(T(r.mag(1e-30, 1e30, true)));
    b.push_back(T(r.mag(1e-10, 1e10, true)));
    c.push_back(T(r.mag(1e-30, 1e30, true)));
    n.push_back(int(r.in(-160, 160)));
  }
  for (T e : edges<T>()) {
    a.push_back(e);
    b.push_back(T(3));
    c.push_back(-e);
    n.push_back(-3);
  }
  std::size_t N = a.size();
  std::vector<T> fma(N), mant(N), frac(N), whole(N), scaled(N);
  std::vector<int> expo(N), cls(N);
  offload(grid(a.size()), exact<T>, a, b, c, n, fma, mant, expo, frac, whole,
          scaled, cls);
  std::size_t bad[6] = {};
  for (std::size_t i = 0; i < N; ++i) {
    int e;
    T w;
    T m = std::frexp(a[i], &e);
    T fr = std::modf(a[i], &w);
    int k = int(std::isnan(a[i])) | int(std::isinf(a[i])) << 1 |
            int(std::isfinite(a[i])) << 2 | int(std::signbit(a[i])) << 3;
    bad[0] += !same(fma[i], std::fma(a[i], b[i], c[i]));
    bad[1] += !same(mant[i], m) || (std::isfinite(a[i]) && expo[i] != e);
    bad[2] += !same(frac[i], fr) || !same(whole[i], w);
    bad[3] += !same(scaled[i], std::ldexp(a[i], n[i]));
    bad[4] += cls[i] != k;
  }
  const char *names[] = {"fma", "frexp", "modf", "ldexp", "classify"};
  for (int j = 0; j < 5; ++j) {
    failures += bad[j] != 0;
    std::printf("%-10s %-6s %6zu  %zu differ%-20s  %s\n", names[j], type, N,
                bad[j], "", bad[j] ? "FAIL" : "ok");
  }
}

void checkCNames(Rng &r) {
  std::vector<float> x;
  std::vector<double> d;
  for (int i = 0; i < 512; ++i) {
    x.push_back(float(r.in(-3, 3)));
    d.push_back(r.in(-3, 3));
  }
  std::vector<float> xf(2 * x.size());
  std::vector<double> xd(2 * d.size());
  offload(c_names, x, d, xf, xd);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    bad += !same(xf[2 * i], xf[2 * i + 1]) + !same(xd[2 * i], xd[2 * i + 1]);
  failures += bad != 0;
  std::printf("%-10s %-6s %6zu  %zu differ from std::%-12s  %s\n", "C names",
              "both", x.size(), bad, "", bad ? "FAIL" : "ok");
}

void checkUtilities() {
  std::vector<int> k;
  for (int v = -300; v <= 300; v += 3)
    k.push_back(v);
  k.push_back(std::numeric_limits<int>::max());
  k.push_back(std::numeric_limits<int>::min() + 1);
  std::vector<long long> ints(8 * k.size());
  std::vector<float> fl(3 * k.size() + 11);
  std::vector<double> db(3 * k.size() + 11);
  offload(utilities, k, ints, fl, db);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < k.size(); ++i) {
    long long v = k[i];
    long long want[8] = {std::abs(k[i]),
                         std::abs(long(v) * 4000000L),
                         std::abs(v * -3000000000LL),
                         std::min(k[i], 7),
                         std::max(k[i], -7),
                         std::clamp(k[i], -100, 100),
                         std::min({k[i], 3, -2}),
                         std::clamp<long long>(v * 1000, -5000, 5000)};
    for (int j = 0; j < 8; ++j)
      bad += ints[8 * i + j] != want[j];
    bad += !same(fl[3 * i], std::min(float(k[i]) * 0.5f, 1.5f)) +
           !same(fl[3 * i + 1], std::max(float(k[i]) * 0.5f, -1.5f)) +
           !same(fl[3 * i + 2], std::clamp(float(k[i]) * 0.25f, -2.0f, 2.0f)) +
           !same(db[3 * i], std::min(double(k[i]) * 0.5, 1.5)) +
           !same(db[3 * i + 1], std::max(double(k[i]) * 0.5, -1.5)) +
           !same(db[3 * i + 2], std::clamp(double(k[i]) * 0.25, -2.0, 2.0));
  }
  std::size_t o = 3 * k.size();
  using F = std::numeric_limits<float>;
  using D = std::numeric_limits<double>;
  float lf[] = {F::epsilon(), F::min(),     F::max(),         F::lowest(),
                F::denorm_min(), F::infinity(), F::quiet_NaN(), INFINITY,
                NAN,          float(F::digits), float(F::max_exponent)};
  double lD[] = {D::epsilon(), D::min(),     D::max(),         D::lowest(),
                 D::denorm_min(), D::infinity(), D::quiet_NaN(), HUGE_VAL,
                 double(NAN),  double(D::digits), double(D::max_exponent)};
  for (int j = 0; j < 11; ++j)
    bad += !same(fl[o + j], lf[j]) + !same(db[o + j], lD[j]);
  failures += bad != 0;
  std::printf("%-10s %-6s %6zu  %zu differ%-20s  %s\n", "integers+",
              "limits", k.size(), bad, "", bad ? "FAIL" : "ok");
}

/// Normwise: |got - want| / |want| in units of epsilon.
template <class T> void checkComplex(Rng &r, double bound) {
  using C = std::complex<T>;
  using CL = std::complex<ld>;
  std::vector<C> a, b;
  for (int i = 0; i < 2048; ++i) {
    a.push_back({T(r.mag(1e-3, 1e3, true)), T(r.mag(1e-3, 1e3, true))});
    b.push_back({T(r.mag(1e-3, 1e3, true)), T(r.mag(1e-3, 1e3, true))});
  }
  std::vector<C> out(6 * a.size());
  offload(grid(a.size()), complex_ops<T>, a, b, out);
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    CL x(a[i].real(), a[i].imag()), y(b[i].real(), b[i].imag());
    CL want[6] = {x + y, x - y, x * y, x / y, std::conj(x) * ld(2),
                  {std::abs(x), std::norm(y)}};
    for (int j = 0; j < 6; ++j) {
      CL got(out[6 * i + j].real(), out[6 * i + j].imag());
      double e = double(std::abs(got - want[j]) /
                        (std::abs(want[j]) * std::numeric_limits<T>::epsilon()));
      if (!(e <= worst))
        worst = e;
    }
  }
  bool ok = worst <= bound;
  failures += !ok;
  std::printf("%-10s %-6s %6zu  max %8.3g eps  bound %4g  %s\n", "complex",
              sizeof(T) == 4 ? "float" : "double", a.size(), worst, bound,
              ok ? "ok" : "FAIL");
}

} // namespace

int main(int argc, char **argv) {
  if (argc > 1)
    Samples = std::max(1, std::atoi(argv[1]));
  std::vector<int> w(1);
  offload(where, w);
  Target t = Target(w[0]);
  std::printf("device math on %s\n", t == NVIDIA ? "an NVIDIA GPU (libdevice)"
                                     : t == AMD  ? "an AMD GPU (ocml)"
                                                 : "the CPU (libm)");
  Rng r{0x9e3779b97f4a7c15ull};
  checkUnary<float>(t, r);
  checkUnary<double>(t, r);
  checkBinary<float>(t, r);
  checkBinary<double>(t, r);
  checkExact<float>(r);
  checkExact<double>(r);
  checkCNames(r);
  checkUtilities();
  // +, -, conj, norm: a few eps; *, / with FMA or another scaling: more.
  checkComplex<float>(r, 8);
  checkComplex<double>(r, 8);
  std::printf("%s: %d check(s) failed\n", failures ? "FAIL" : "ok", failures);
  return failures ? 1 : 0;
}
