//===- bench/apps/srad/ref.hpp - an SRAD diffusion step and its check -----===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// One step of speckle-reducing anisotropic diffusion (Yu and Acton 2002; the
// structure of Rodinia's srad) on an n x n float image J, in two kernels on a
// 2-D grid of 16 x 16 blocks:
//   coefficient: from J's four differences to the neighbours (edges clamp),
//     q^2 = (G2/2 - L^2/16) / (1 + L/4)^2 with G2 = sum d^2 / J^2 and
//     L = sum d / J, the diffusion coefficient
//     c = exp(-(q^2 - q0^2) / (q0^2 (1 + q0^2))) clamped to [0, 1] (the
//     exponential form of the SRAD paper);
//   update: Jn = J + lambda/4 (c_N dN + c_S dS + c_W dW + c_E dE) with c_N =
//     c_W = c at the pixel, c_S and c_E at the south and east neighbours.
// q0^2 (var/mean^2 of the image) is computed once on the host. The image
// is Rodinia's: exp of a picture in [0, 1].
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_APPS_SRAD_REF_HPP
#define OFFLOAD_BENCH_APPS_SRAD_REF_HPP

#include "../common/apps.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace srad {

constexpr float kLambda = 0.5f;
constexpr unsigned kTile = 16;
const char *const kMeasure = "app_srad";

/// A smooth picture with speckle: exp of values in [0, 1].
inline std::vector<float> make_image(std::size_t n) {
  std::vector<float> j(n * n), row(n);
  for (std::size_t x = 0; x < n; ++x)
    row[x] = float(0.25 * std::sin(12.0 * double(x) / double(n)));
  for (std::size_t y = 0; y < n; ++y) {
    float col = float(std::cos(9.0 * double(y) / double(n)));
    for (std::size_t x = 0; x < n; ++x) {
      float v = 0.5f + row[x] * col + apps::uniform(31, y * n + x, -0.2f, 0.2f);
      j[y * n + x] = std::exp(std::clamp(v, 0.0f, 1.0f));
    }
  }
  return j;
}

/// var / mean^2 of the image.
inline float q0sqr(const std::vector<float> &j) {
  double sum = 0, sum2 = 0;
  for (float v : j)
    sum += v, sum2 += double(v) * v;
  double mean = sum / double(j.size());
  double var = sum2 / double(j.size()) - mean * mean;
  return float(var / (mean * mean));
}

/// The coefficient of pixel (x, y) and the new value, in double.
inline void reference(std::size_t n, const std::vector<float> &j, float q0,
                      std::size_t x, std::size_t y, double &c, double &jn) {
  auto at = [&](std::size_t xx, std::size_t yy) {
    return double(j[yy * n + xx]);
  };
  auto coeff = [&](std::size_t xx, std::size_t yy) {
    double jc = at(xx, yy);
    double dN = at(xx, yy ? yy - 1 : 0) - jc,
           dS = at(xx, std::min(yy + 1, n - 1)) - jc,
           dW = at(xx ? xx - 1 : 0, yy) - jc,
           dE = at(std::min(xx + 1, n - 1), yy) - jc;
    double g2 = (dN * dN + dS * dS + dW * dW + dE * dE) / (jc * jc);
    double l = (dN + dS + dW + dE) / jc;
    double num = 0.5 * g2 - l * l / 16.0, den = 1 + 0.25 * l;
    double q = num / (den * den);
    return std::clamp(std::exp(-(q - q0) / (q0 * (1 + q0))), 0.0, 1.0);
  };
  double jc = at(x, y);
  double dN = at(x, y ? y - 1 : 0) - jc,
         dS = at(x, std::min(y + 1, n - 1)) - jc,
         dW = at(x ? x - 1 : 0, y) - jc,
         dE = at(std::min(x + 1, n - 1), y) - jc;
  c = coeff(x, y);
  double cS = coeff(x, std::min(y + 1, n - 1)),
         cE = coeff(std::min(x + 1, n - 1), y);
  jn = jc + 0.25 * kLambda * (c * dN + cS * dS + c * dW + cE * dE);
}

/// A sample of rows, every pixel of them: c within 1e-4 (float's exp and
/// divisions, a few ulps, scaled by the exponent), Jn within 1e-5 relative.
inline void check(const char *impl, std::size_t n, const std::vector<float> &j,
                  float q0, const std::vector<float> &c,
                  const std::vector<float> &jn) {
  double worst = 0;
  std::size_t rows = apps::for_sample(n, 128, [&](std::size_t y) {
    for (std::size_t x = 0; x < n; ++x) {
      double wc, wj;
      reference(n, j, q0, x, y, wc, wj);
      std::size_t i = y * n + x;
      double ec = std::fabs(c[i] - wc) / 1e-4,
             ej = std::fabs(jn[i] - wj) / (1e-5 * wj);
      worst = std::fmax(worst, std::fmax(ec, ej));
      if (!(ec <= 1) || !(ej <= 1))
        apps::failf(kMeasure, impl,
                    "pixel (%zu, %zu): c %.9g Jn %.9g, expected %.9g %.9g", x,
                    y, c[i], jn[i], wc, wj);
    }
  });
  char what[128];
  std::snprintf(what, sizeof what,
                "%zu of %zu rows against double, worst error %.2f of the "
                "tolerance",
                rows, n, worst);
  apps::checked(kMeasure, impl, what);
}

} // namespace srad

#endif // OFFLOAD_BENCH_APPS_SRAD_REF_HPP
