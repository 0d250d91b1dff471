//===- bench/apps/srad/ours.cpp - an SRAD diffusion step with offload() ---===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// One diffusion step (ref.hpp) of an n x n image: two kernels on a 2-D grid
// of 16 x 16 blocks, the image, the coefficients and the new image resident
// in an ofld::region. A repetition is the step: two offload() calls (each
// waits; cuda.cu waits once after both).
//
//   apps_srad_ours [--n=SIDE (8192)] [--reps=R] [--warmup=W]
//
//===----------------------------------------------------------------------===//

#include "ref.hpp"

#include <cmath>
#include <span>
#include <vector>

[[offload::kernel]] void srad_coeff(std::span<const float> J,
                                    APPS_OUT std::span<float> C, unsigned n,
                                    float q0sqr) {
  const std::size_t x = ofld::global_id(0), y = ofld::global_id(1);
  if (x >= n || y >= n)
    return;
  const std::size_t i = y * n + x;
  const float jc = J[i];
  const float dN = J[y > 0 ? i - n : i] - jc,
              dS = J[y + 1 < n ? i + n : i] - jc;
  const float dW = J[x > 0 ? i - 1 : i] - jc,
              dE = J[x + 1 < n ? i + 1 : i] - jc;
  const float g2 = (dN * dN + dS * dS + dW * dW + dE * dE) / (jc * jc);
  const float l = (dN + dS + dW + dE) / jc;
  const float num = 0.5f * g2 - 0.0625f * l * l;
  const float den = 1.0f + 0.25f * l;
  const float q = num / (den * den);
  const float c = std::exp(-(q - q0sqr) / (q0sqr * (1.0f + q0sqr)));
  C[i] = std::fmin(std::fmax(c, 0.0f), 1.0f);
}

[[offload::kernel]] void srad_update(std::span<const float> J,
                                     std::span<const float> C,
                                     APPS_OUT std::span<float> Jn, unsigned n,
                                     float lambda) {
  const std::size_t x = ofld::global_id(0), y = ofld::global_id(1);
  if (x >= n || y >= n)
    return;
  const std::size_t i = y * n + x;
  const std::size_t iS = y + 1 < n ? i + n : i, iE = x + 1 < n ? i + 1 : i;
  const float jc = J[i];
  const float dN = J[y > 0 ? i - n : i] - jc, dS = J[iS] - jc;
  const float dW = J[x > 0 ? i - 1 : i] - jc, dE = J[iE] - jc;
  const float c = C[i];
  Jn[i] = jc + 0.25f * lambda * (c * dN + C[iS] * dS + c * dW + C[iE] * dE);
}

int main(int argc, char **argv) {
  bench::Args a = bench::parse(argc, argv, {50, 3, 8192, ""});
  if (ofld::device_count() < 1)
    bench::no_device(argv[0], "ofld::device_count() is 0");
  const std::size_t n = a.n;
  const std::vector<float> J = srad::make_image(n);
  const float q0 = srad::q0sqr(J);
  std::vector<float> C(n * n), Jn(n * n);
  apps::poison(C);
  apps::poison(Jn);
  const unsigned blocks = unsigned((n + srad::kTile - 1) / srad::kTile);
  const ofld::launch shape{.grid = {blocks, blocks},
                           .block = {srad::kTile, srad::kTile}};
  bench::Samples s;
  {
    ofld::region resident{std::span<const float>(J), std::span<float>(C),
                          std::span<float>(Jn)};
    s = bench::time_host(a, [&] {
      offload(shape, srad_coeff, J, C, unsigned(n), q0);
      offload(shape, srad_update, J, C, Jn, unsigned(n), srad::kLambda);
      // Launches on resident data return once queued (stream order):
      // wait for them, as the CUDA version synchronises.
      ofld::wait();
    });
  }
  srad::check("ours", n, J, q0, C, Jn);
  char extra[64];
  std::snprintf(extra, sizeof extra, "size=%zux%zu", n, n);
  s.report(srad::kMeasure, "ours", 0, extra);
  return 0;
}
