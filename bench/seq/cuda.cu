//===- cuda.cu - sequences of dependent launches on resident data (CUDA) --===//
//
// Part of the offload project's benchmark suite (issue 15). The baseline of
// ours.cpp: the same kernels (kernels.hpp), the same grids, the data in
// cudaMalloc'ed memory, every launch on one stream and one
// cudaStreamSynchronize at the end of each repetition.
//
// Two implementations of every measure, one after the other in this program:
//   cuda      plain <<<>>> launches: the baseline of the goals.
//   cuda_pdl  a reference row, what CUDA does with programmatic dependent
//             launch written by hand, as our runtime launches on sm_90+:
//             cudaLaunchKernelEx with programmatic stream serialization, and
//             every kernel first waits for its predecessor
//             (cudaGridDependencySynchronize, griddepcontrol.wait), so that
//             a launch overlaps the end of the kernel before it.
// Both check their results the same way (CPU reference, chain count).
//
//===----------------------------------------------------------------------===//

#define BENCH_SEQ_HD __host__ __device__
#include "../common/bench.hpp"
#include "../common/cuda_check.cuh"
#include "kernels.hpp"

#include <vector>

/// The kernels of cuda_pdl may start while the previous kernel of the stream
/// still runs: they wait for it (and its writes) before touching the data.
/// No early trigger (cudaTriggerProgrammaticLaunchCompletion), as in our
/// runtime: the next kernel is released as this one's blocks exit.
template <bool Pdl> __device__ __forceinline__ void wait_prev() {
  if constexpr (Pdl)
    cudaGridDependencySynchronize();
}

template <bool Pdl> __global__ void inc(int *x, int n) {
  wait_prev<Pdl>();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1;
}

template <bool Pdl> __global__ void jacobi(const float *a, float *b, int n) {
  wait_prev<Pdl>();
  seq::jacobi_point(a, b, n, blockIdx.y * blockDim.y + threadIdx.y,
                    blockIdx.x * blockDim.x + threadIdx.x);
}

template <bool Pdl>
__global__ void ey_step(float *ey, const float *hz, float fict, int nx,
                        int ny) {
  wait_prev<Pdl>();
  seq::fdtd_ey(ey, hz, fict, nx, ny, blockIdx.y * blockDim.y + threadIdx.y,
               blockIdx.x * blockDim.x + threadIdx.x);
}

template <bool Pdl>
__global__ void ex_step(float *ex, const float *hz, int nx, int ny) {
  wait_prev<Pdl>();
  seq::fdtd_ex(ex, hz, nx, ny, blockIdx.y * blockDim.y + threadIdx.y,
               blockIdx.x * blockDim.x + threadIdx.x);
}

template <bool Pdl>
__global__ void hz_step(float *hz, const float *ex, const float *ey, int nx,
                        int ny) {
  wait_prev<Pdl>();
  seq::fdtd_hz(hz, ex, ey, nx, ny, blockIdx.y * blockDim.y + threadIdx.y,
               blockIdx.x * blockDim.x + threadIdx.x);
}

namespace {

/// Launches on one stream: cuda with <<<>>>, cuda_pdl with cudaLaunchKernelEx
/// and programmatic stream serialization (the kernels' wait_prev keeps the
/// order of their data).
template <bool Pdl> struct Launcher {
  static constexpr const char *impl = Pdl ? "cuda_pdl" : "cuda";
  cudaStream_t s;

  template <class... P, class... A>
  void operator()(void (*k)(P...), dim3 grid, dim3 block, A... args) const {
    if constexpr (Pdl) {
      cudaLaunchAttribute attr;
      attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
      attr.val.programmaticStreamSerializationAllowed = 1;
      cudaLaunchConfig_t cfg = {};
      cfg.gridDim = grid;
      cfg.blockDim = block;
      cfg.stream = s;
      cfg.attrs = &attr;
      cfg.numAttrs = 1;
      CK(cudaLaunchKernelEx(&cfg, k, args...));
    } else {
      k<<<grid, block, 0, s>>>(args...);
    }
  }
};

dim3 grid2d(int n) {
  return dim3((n + seq::BlockX - 1) / seq::BlockX,
              (n + seq::BlockY - 1) / seq::BlockY);
}
const dim3 block2d(seq::BlockX, seq::BlockY);

float *upload(const std::vector<float> &h) {
  float *d;
  CK(cudaMalloc(&d, h.size() * sizeof(float)));
  CK(cudaMemcpy(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
  return d;
}

/// --pad-kib: device memory held while the timed arrays are placed and used.
struct Pad {
  void *p = nullptr;
  explicit Pad(std::size_t kib) {
    if (kib)
      CK(cudaMalloc(&p, kib * 1024));
  }
  ~Pad() { cudaFree(p); }
};

void download(std::vector<float> &h, const float *d) {
  CK(cudaMemcpy(h.data(), d, h.size() * sizeof(float), cudaMemcpyDeviceToHost));
}

template <bool Pdl>
void jacobi_run(Launcher<Pdl> launch, float *a, float *b, int n, int sweeps) {
  for (int t = 0; t < sweeps; ++t) {
    launch(jacobi<Pdl>, grid2d(n), block2d, a, b, n);
    launch(jacobi<Pdl>, grid2d(n), block2d, b, a, n);
  }
  CK(cudaStreamSynchronize(launch.s));
}

template <bool Pdl>
void fdtd_run(Launcher<Pdl> launch, float *ex, float *ey, float *hz,
              const std::vector<float> &fict, int n, int steps) {
  for (int t = 0; t < steps; ++t) {
    launch(ey_step<Pdl>, grid2d(n), block2d, ey, hz, fict[t], n, n);
    launch(ex_step<Pdl>, grid2d(n), block2d, ex, hz, n, n);
    launch(hz_step<Pdl>, grid2d(n), block2d, hz, ex, ey, n, n);
  }
  CK(cudaStreamSynchronize(launch.s));
}

template <bool Pdl> void chain(const bench::Args &a, Launcher<Pdl> launch) {
  int *x;
  CK(cudaMalloc(&x, seq::ChainElements * sizeof(int)));
  CK(cudaMemset(x, 0, seq::ChainElements * sizeof(int)));
  bench::Samples t = bench::time_host(a, [&] {
    for (int k = 0; k < seq::ChainLaunches; ++k)
      launch(inc<Pdl>, 1, seq::ChainElements, x, seq::ChainElements);
    CK(cudaStreamSynchronize(launch.s));
  });
  CK(cudaGetLastError());
  std::vector<int> h(seq::ChainElements);
  CK(cudaMemcpy(h.data(), x, h.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int v : h)
    if (v != (a.warmup + a.reps) * seq::ChainLaunches)
      bench::fail("seq_chain", launch.impl, "wrong count");
  char extra[96];
  std::snprintf(extra, sizeof extra, "launches=%d per_launch_us=%.3f",
                seq::ChainLaunches, t.quantile(0.5) / seq::ChainLaunches);
  t.report("seq_chain", launch.impl, 0, extra);
  CK(cudaFree(x));
}

template <bool Pdl> void jacobi2d(const bench::Args &a, Launcher<Pdl> launch) {
  const int n = int(a.n);
  const int cn = 64, csweeps = 20;
  std::vector<float> ca(cn * cn), cb(cn * cn);
  seq::jacobi_init(ca, cb, cn);
  std::vector<float> ra = ca, rb = cb;
  float *da = upload(ca), *db = upload(cb);
  jacobi_run(launch, da, db, cn, csweeps);
  download(ca, da);
  download(cb, db);
  seq::jacobi_cpu(ra, rb, cn, csweeps);
  if (seq::max_rel_diff(ca, ra) > 1e-5 || seq::max_rel_diff(cb, rb) > 1e-5)
    bench::fail("seq_jacobi2d", launch.impl, "differs from the CPU reference");
  CK(cudaFree(da));
  CK(cudaFree(db));

  std::vector<float> A(std::size_t(n) * n), B(std::size_t(n) * n);
  seq::jacobi_init(A, B, n);
  Pad pad(a.pad_kib);
  float *dA = upload(A), *dB = upload(B);
  bench::Samples t = bench::time_host(
      a, [&] { jacobi_run(launch, dA, dB, n, seq::JacobiSweeps); });
  CK(cudaGetLastError());
  download(A, dA);
  char extra[128];
  std::snprintf(extra, sizeof extra,
                "n=%d kernels=%d per_kernel_us=%.3f checksum=%.6e", n,
                2 * seq::JacobiSweeps,
                t.quantile(0.5) / (2 * seq::JacobiSweeps), seq::checksum(A));
  t.report("seq_jacobi2d", launch.impl, 0, extra);
  CK(cudaFree(dA));
  CK(cudaFree(dB));
}

template <bool Pdl> void fdtd2d(const bench::Args &a, Launcher<Pdl> launch) {
  const int n = int(a.n);
  const int cn = 64, csteps = 20;
  std::vector<float> cex(cn * cn), cey(cn * cn), chz(cn * cn), cf;
  seq::fdtd_init(cex, cey, chz, cf, cn, cn, csteps);
  std::vector<float> rex = cex, rey = cey, rhz = chz;
  float *dex = upload(cex), *dey = upload(cey), *dhz = upload(chz);
  fdtd_run(launch, dex, dey, dhz, cf, cn, csteps);
  download(cex, dex);
  download(chz, dhz);
  seq::fdtd_cpu(rex, rey, rhz, cf, cn, cn, csteps);
  if (seq::max_rel_diff(chz, rhz) > 1e-4 || seq::max_rel_diff(cex, rex) > 1e-4)
    bench::fail("seq_fdtd2d", launch.impl, "differs from the CPU reference");
  CK(cudaFree(dex));
  CK(cudaFree(dey));
  CK(cudaFree(dhz));

  std::vector<float> ex(std::size_t(n) * n), ey(std::size_t(n) * n),
      hz(std::size_t(n) * n), fict;
  seq::fdtd_init(ex, ey, hz, fict, n, n, seq::FdtdSteps);
  Pad pad(a.pad_kib);
  float *Ex = upload(ex), *Ey = upload(ey), *Hz = upload(hz);
  bench::Samples t = bench::time_host(
      a, [&] { fdtd_run(launch, Ex, Ey, Hz, fict, n, seq::FdtdSteps); });
  CK(cudaGetLastError());
  download(hz, Hz);
  char extra[128];
  std::snprintf(extra, sizeof extra,
                "n=%d kernels=%d per_kernel_us=%.3f checksum=%.6e", n,
                3 * seq::FdtdSteps, t.quantile(0.5) / (3 * seq::FdtdSteps),
                seq::checksum(hz));
  t.report("seq_fdtd2d", launch.impl, 0, extra);
  CK(cudaFree(Ex));
  CK(cudaFree(Ey));
  CK(cudaFree(Hz));
}

} // namespace

int main(int argc, char **argv) {
  const bench::Args a = bench::parse(argc, argv, {5, 1, 2048, ""});
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
    bench::no_device(argv[0], "cudaGetDeviceCount");
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  // Each measure's two implementations in turn, the same arrays freed and
  // allocated again in between (so, after the same --pad-kib, the same
  // placement as far as the driver repeats itself).
  const Launcher<false> plain{s};
  const Launcher<true> pdl{s};

  if (bench::wanted(a, "seq_chain")) {
    chain(a, plain);
    chain(a, pdl);
  }
  if (bench::wanted(a, "seq_jacobi2d")) {
    jacobi2d(a, plain);
    jacobi2d(a, pdl);
  }
  if (bench::wanted(a, "seq_fdtd2d")) {
    fdtd2d(a, plain);
    fdtd2d(a, pdl);
  }
  return 0;
}
