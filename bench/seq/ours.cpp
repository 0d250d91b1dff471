//===- ours.cpp - sequences of dependent launches on resident data --------===//
//
// Part of the offload project's benchmark suite (issue 15). Three programs
// made of many small dependent launches on data that stays on the device,
// timed from the first launch to the end of one ofld::wait(), as cuda.cu
// times them on one stream with one cudaStreamSynchronize:
//   seq_chain     10,000 launches of x[i] += 1 (1 block of 256)
//   seq_jacobi2d  1000 sweeps of PolyBench's jacobi-2d, two kernels a sweep
//   seq_fdtd2d    500 steps of PolyBench's fdtd-2d, three kernels a step
// The data lives in an ofld::region, so every launch goes to the device's
// stream and returns. Before timing, each is checked against the CPU on a
// small grid; the timed runs print a checksum to compare with cuda.cu's.
//
//===----------------------------------------------------------------------===//

#include "../common/bench.hpp"
#include "stencils.hpp"

#include <omp.h>

#include <span>
#include <vector>

[[offload::kernel]] void inc(std::span<int> x) {
  std::size_t i = ofld::global_id();
  if (i < x.size())
    x[i] += 1;
}

namespace {

/// --pad-kib: device memory held while the timed arrays are placed and used.
struct Pad {
  void *p = nullptr;
  explicit Pad(std::size_t kib) {
    if (kib && !(p = omp_target_alloc(kib * 1024, omp_get_default_device())))
      bench::fail("pad", "ours", "omp_target_alloc failed");
  }
  ~Pad() { omp_target_free(p, omp_get_default_device()); }
};

ofld::launch grid2d(int n) {
  return {.grid = {(std::size_t(n) + seq::BlockX - 1) / seq::BlockX,
                   (std::size_t(n) + seq::BlockY - 1) / seq::BlockY},
          .block = {seq::BlockX, seq::BlockY}};
}

void jacobi_run(std::vector<float> &a, std::vector<float> &b, int n,
                int sweeps) {
  const ofld::launch shape = grid2d(n);
  for (int t = 0; t < sweeps; ++t) {
    offload(shape, jacobi, a, b, n);
    offload(shape, jacobi, b, a, n);
  }
  ofld::wait();
}

void fdtd_run(std::vector<float> &ex, std::vector<float> &ey,
              std::vector<float> &hz, const std::vector<float> &fict, int n,
              int steps) {
  const ofld::launch shape = grid2d(n);
  for (int t = 0; t < steps; ++t) {
    offload(shape, ey_step, ey, hz, fict[t], n, n);
    offload(shape, ex_step, ex, hz, n, n);
    offload(shape, hz_step, hz, ex, ey, n, n);
  }
  ofld::wait();
}

} // namespace

int main(int argc, char **argv) {
  const bench::Args a = bench::parse(argc, argv, {5, 1, 2048, ""});
  const int n = int(a.n);
  if (ofld::device_count() == 0)
    bench::no_device(argv[0], "ofld::device_count() is 0");

  if (bench::wanted(a, "seq_chain")) {
    std::vector<int> x(seq::ChainElements, 0);
    bench::Samples s;
    {
      ofld::region keep{std::span<int>(x)};
      s = bench::time_host(a, [&] {
        for (int k = 0; k < seq::ChainLaunches; ++k)
          offload(inc, x);
        ofld::wait();
      });
    }
    for (int v : x)
      if (v != (a.warmup + a.reps) * seq::ChainLaunches)
        bench::fail("seq_chain", "ours", "wrong count");
    char extra[96];
    std::snprintf(extra, sizeof extra, "launches=%d per_launch_us=%.3f",
                  seq::ChainLaunches, s.quantile(0.5) / seq::ChainLaunches);
    s.report("seq_chain", "ours", 0, extra);
  }

  if (bench::wanted(a, "seq_jacobi2d")) {
    // Correctness first, on a small grid.
    const int cn = 64, csweeps = 20;
    std::vector<float> ca(cn * cn), cb(cn * cn), ra(cn * cn), rb(cn * cn);
    seq::jacobi_init(ca, cb, cn);
    ra = ca, rb = cb;
    {
      ofld::region keep{std::span<float>(ca), std::span<float>(cb)};
      jacobi_run(ca, cb, cn, csweeps);
    }
    seq::jacobi_cpu(ra, rb, cn, csweeps);
    if (seq::max_rel_diff(ca, ra) > 1e-5 || seq::max_rel_diff(cb, rb) > 1e-5)
      bench::fail("seq_jacobi2d", "ours", "differs from the CPU reference");

    std::vector<float> A(std::size_t(n) * n), B(std::size_t(n) * n);
    seq::jacobi_init(A, B, n);
    bench::Samples s;
    {
      Pad pad(a.pad_kib);
      ofld::region keep{std::span<float>(A), std::span<float>(B)};
      s = bench::time_host(a, [&] { jacobi_run(A, B, n, seq::JacobiSweeps); });
    }
    char extra[128];
    std::snprintf(extra, sizeof extra,
                  "n=%d kernels=%d per_kernel_us=%.3f checksum=%.6e", n,
                  2 * seq::JacobiSweeps,
                  s.quantile(0.5) / (2 * seq::JacobiSweeps), seq::checksum(A));
    s.report("seq_jacobi2d", "ours", 0, extra);
  }

  if (bench::wanted(a, "seq_fdtd2d")) {
    const int cn = 64, csteps = 20;
    std::vector<float> cex(cn * cn), cey(cn * cn), chz(cn * cn), cf;
    seq::fdtd_init(cex, cey, chz, cf, cn, cn, csteps);
    std::vector<float> rex = cex, rey = cey, rhz = chz;
    {
      ofld::region keep{std::span<float>(cex), std::span<float>(cey),
                        std::span<float>(chz)};
      fdtd_run(cex, cey, chz, cf, cn, csteps);
    }
    seq::fdtd_cpu(rex, rey, rhz, cf, cn, cn, csteps);
    if (seq::max_rel_diff(chz, rhz) > 1e-4 ||
        seq::max_rel_diff(cex, rex) > 1e-4)
      bench::fail("seq_fdtd2d", "ours", "differs from the CPU reference");

    std::vector<float> ex(std::size_t(n) * n), ey(std::size_t(n) * n),
        hz(std::size_t(n) * n), fict;
    seq::fdtd_init(ex, ey, hz, fict, n, n, seq::FdtdSteps);
    bench::Samples s;
    {
      Pad pad(a.pad_kib);
      ofld::region keep{std::span<float>(ex), std::span<float>(ey),
                        std::span<float>(hz)};
      s = bench::time_host(
          a, [&] { fdtd_run(ex, ey, hz, fict, n, seq::FdtdSteps); });
    }
    char extra[128];
    std::snprintf(extra, sizeof extra,
                  "n=%d kernels=%d per_kernel_us=%.3f checksum=%.6e", n,
                  3 * seq::FdtdSteps, s.quantile(0.5) / (3 * seq::FdtdSteps),
                  seq::checksum(hz));
    s.report("seq_fdtd2d", "ours", 0, extra);
  }
  return 0;
}
