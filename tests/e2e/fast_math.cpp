//===- fast_math.cpp - end-to-end: CUDA's fast intrinsics in kernels ------===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//
//
// Ported CUDA kernels call __expf, __sinf, __fdividef, rsqrtf... by those
// names (issue 28). Each of them runs in a kernel on a few hundred inputs in
// the range CUDA documents its error for, and is compared with libm in
// double: within CUDA's documented bound on GPUs (the approximate PTX
// instructions), within 2 ulp on CPUs (the accurate function). Edge cases
// are exact: __saturatef of NaN, -0, 2 and 0.5; __fdividef of 1/4.
// Prints one row per function with its largest error; exits 1 if any
// exceeds its bound or a call did not give its function's value.
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp>

#include <cmath>
#include <cstdio>
#include <span>
#include <vector>

enum Fn {
  Exp, Exp10, Log, Log2, Log10, Pow, Sin, Cos, Tan, SinCos, Fdivide, Saturate,
  Rsqrtf, Rsqrt, Rcbrtf, Rcbrt, NumFn
};

struct Spec {
  const char *Name;
  double Lo, Hi; ///< inputs, evenly spaced
  double Abs;    ///< bound on GPUs: absolute error
  double Rel;    ///< or relative error (whichever is larger)
};

// CUDA C++ Programming Guide, "Intrinsic Functions": __expf 2 + 1.173|x| ulp
// (relative 2^-23 * that), __logf/__log2f/__sinf/__cosf absolute 2^-21.41 or
// 2^-22 in their range (so near 0 an absolute bound: __tanf is
// __sinf / __cosf), __powf from exp2(y * log2(x)), __fdividef 2 ulp.
// The bounds below are those, rounded up.
constexpr Spec Specs[NumFn] = {
    {"__expf", -10, 10, 0, 2e-6},      {"__exp10f", -4, 4, 0, 1e-5},
    {"__logf", 0.5, 2, 5e-7, 0},       {"__log2f", 0.5, 2, 5e-7, 0},
    {"__log10f", 0.5, 2, 5e-7, 0},     {"__powf", 0.5, 4, 0, 1e-5},
    {"__sinf", -3.14, 3.14, 5e-7, 0},  {"__cosf", -3.14, 3.14, 5e-7, 0},
    {"__tanf", -1, 1, 5e-7, 4e-6},        {"__sincosf", -3.14, 3.14, 5e-7, 0},
    {"__fdividef", 1, 100, 0, 3e-7},   {"__saturatef", -1, 2, 0, 0},
    {"rsqrtf", 1e-3, 1e3, 0, 3e-7},    {"rsqrt", 1e-3, 1e3, 0, 4.5e-16},
    {"rcbrtf", 1e-3, 1e3, 0, 3e-7},    {"rcbrt", 1e-3, 1e3, 0, 4.5e-16},
};

constexpr int PerFn = 256;

/// `in[i]` through function `f`; __sincosf gives sin + cos.
[[offload::kernel]] void fast(std::span<const double> in, std::span<double> out,
                              int f) {
  std::size_t i = ofld::global_id();
  if (i >= in.size())
    return;
  float x = float(in[i]);
  double r = 0;
  switch (f) {
  case Exp: r = __expf(x); break;
  case Exp10: r = __exp10f(x); break;
  case Log: r = __logf(x); break;
  case Log2: r = __log2f(x); break;
  case Log10: r = __log10f(x); break;
  case Pow: r = __powf(x, 1.5f); break;
  case Sin: r = __sinf(x); break;
  case Cos: r = __cosf(x); break;
  case Tan: r = __tanf(x); break;
  case SinCos: // sincos_sum
    break;
  case Fdivide: r = __fdividef(7.0f, x); break;
  case Saturate: r = __saturatef(x); break;
  case Rsqrtf: r = rsqrtf(x); break;
  case Rsqrt: r = rsqrt(in[i]); break;
  case Rcbrtf: r = rcbrtf(x); break;
  case Rcbrt: r = rcbrt(in[i]); break;
  }
  out[i] = r;
}

/// __sincosf, through pointers into global memory (a local's address
/// would make OpenMP compilers put the local in shared memory through
/// their device runtime, which the rewritten program builds without).
[[offload::kernel]] void sincos_sum(std::span<const double> in,
                                    std::span<float> s, std::span<float> c) {
  std::size_t i = ofld::global_id();
  if (i < in.size())
    __sincosf(float(in[i]), &s[i], &c[i]);
}

/// Edge cases with exact answers, one per element of `out`.
[[offload::kernel]] void edges(std::span<float> out) {
  out[0] = __saturatef(__builtin_nanf(""));
  out[1] = __saturatef(-0.0f);
  out[2] = __saturatef(2.0f);
  out[3] = __saturatef(0.5f);
  out[4] = __fdividef(1.0f, 4.0f);
}

[[offload::kernel]] void where(std::span<int> out) {
#if defined(__NVPTX__) || defined(__AMDGPU__)
  out[0] = 1;
#else
  out[0] = 0;
#endif
}

static double reference(int F, double X) {
  float XF = float(X);
  double x = XF; // the float input the kernel saw
  switch (F) {
  case Exp: return std::exp(x);
  case Exp10: return std::pow(10.0, x);
  case Log: return std::log(x);
  case Log2: return std::log2(x);
  case Log10: return std::log10(x);
  case Pow: return std::pow(x, 1.5);
  case Sin: return std::sin(x);
  case Cos: return std::cos(x);
  case Tan: return std::tan(x);
  case SinCos: return std::sin(x) + std::cos(x);
  case Fdivide: return 7.0 / x;
  case Saturate: return x < 0 ? 0 : (x > 1 ? 1 : x);
  case Rsqrtf: return 1 / std::sqrt(x);
  case Rsqrt: return 1 / std::sqrt(X);
  case Rcbrtf: return 1 / std::cbrt(x);
  case Rcbrt: return 1 / std::cbrt(X);
  }
  return 0;
}

int main() {
  std::vector<int> Gpu(1, -1);
  offload(where, Gpu);
  std::printf("fast intrinsics on the %s\n", Gpu[0] ? "GPU" : "CPU");
  int Failed = 0;
  for (int F = 0; F < NumFn; ++F) {
    const Spec &S = Specs[F];
    std::vector<double> In(PerFn), Out(PerFn, -1.0);
    for (int I = 0; I < PerFn; ++I)
      In[I] = S.Lo + (S.Hi - S.Lo) * I / (PerFn - 1);
    if (F == SinCos) {
      std::vector<float> S(PerFn, -1.0f), C(PerFn, -1.0f);
      offload(sincos_sum, In, S, C);
      for (int I = 0; I < PerFn; ++I)
        Out[I] = double(S[I]) + double(C[I]);
    } else {
      offload(fast, In, Out, F);
    }
    // On CPUs the accurate function: 2 ulp of the result's type.
    bool Double = F == Rsqrt || F == Rcbrt;
    double Ulp2 = Double ? 4.5e-16 : 2.4e-7;
    double Worst = 0;
    for (int I = 0; I < PerFn; ++I) {
      double Ref = reference(F, In[I]);
      double Err = std::fabs(Out[I] - Ref);
      double Bound = Gpu[0] ? std::max(S.Abs, S.Rel * std::fabs(Ref))
                            : Ulp2 * std::max(1.0, std::fabs(Ref));
      if (F == SinCos)
        Bound *= 2; // two results added
      double Scaled = Bound > 0 ? Err / Bound : (Err > 0 ? 2 : 0);
      Worst = std::max(Worst, Scaled);
      if (!(Err <= Bound)) {
        if (++Failed <= 10)
          std::printf("FAIL %s(%.9g) = %.9g, want %.9g (bound %.3g)\n",
                      S.Name, In[I], Out[I], Ref, Bound);
      }
    }
    std::printf("%-12s worst error %.2f of its bound\n", S.Name, Worst);
  }
  std::vector<float> E(5, -1.0f);
  offload(edges, E);
  const float Want[5] = {0.0f, 0.0f, 1.0f, 0.5f, 0.25f};
  for (int I = 0; I < 5; ++I)
    if (E[I] != Want[I] || std::signbit(E[I])) {
      ++Failed;
      std::printf("FAIL edge case %d: %g, want %g\n", I, E[I], Want[I]);
    }
  std::printf("%s\n", Failed ? "FAILED" : "all fast intrinsics within bounds");
  return Failed != 0;
}
