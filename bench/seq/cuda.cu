//===- cuda.cu - sequences of dependent launches on resident data (CUDA) --===//
//
// Part of the offload project's benchmark suite (issue 15). The baseline of
// ours.cpp: the same kernels (kernels.hpp), the same grids, the data in
// cudaMalloc'ed memory, every launch on one stream and one
// cudaStreamSynchronize at the end of each repetition.
//
//===----------------------------------------------------------------------===//

#define BENCH_SEQ_HD __host__ __device__
#include "../common/bench.hpp"
#include "../common/cuda_check.cuh"
#include "kernels.hpp"

#include <vector>

__global__ void inc(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1;
}

__global__ void jacobi(const float *a, float *b, int n) {
  seq::jacobi_point(a, b, n, blockIdx.y * blockDim.y + threadIdx.y,
                    blockIdx.x * blockDim.x + threadIdx.x);
}

__global__ void ey_step(float *ey, const float *hz, float fict, int nx,
                        int ny) {
  seq::fdtd_ey(ey, hz, fict, nx, ny, blockIdx.y * blockDim.y + threadIdx.y,
               blockIdx.x * blockDim.x + threadIdx.x);
}

__global__ void ex_step(float *ex, const float *hz, int nx, int ny) {
  seq::fdtd_ex(ex, hz, nx, ny, blockIdx.y * blockDim.y + threadIdx.y,
               blockIdx.x * blockDim.x + threadIdx.x);
}

__global__ void hz_step(float *hz, const float *ex, const float *ey, int nx,
                        int ny) {
  seq::fdtd_hz(hz, ex, ey, nx, ny, blockIdx.y * blockDim.y + threadIdx.y,
               blockIdx.x * blockDim.x + threadIdx.x);
}

namespace {

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

void jacobi_run(float *a, float *b, int n, int sweeps, cudaStream_t s) {
  for (int t = 0; t < sweeps; ++t) {
    jacobi<<<grid2d(n), block2d, 0, s>>>(a, b, n);
    jacobi<<<grid2d(n), block2d, 0, s>>>(b, a, n);
  }
  CK(cudaStreamSynchronize(s));
}

void fdtd_run(float *ex, float *ey, float *hz, const std::vector<float> &fict,
              int n, int steps, cudaStream_t s) {
  for (int t = 0; t < steps; ++t) {
    ey_step<<<grid2d(n), block2d, 0, s>>>(ey, hz, fict[t], n, n);
    ex_step<<<grid2d(n), block2d, 0, s>>>(ex, hz, n, n);
    hz_step<<<grid2d(n), block2d, 0, s>>>(hz, ex, ey, n, n);
  }
  CK(cudaStreamSynchronize(s));
}

} // namespace

int main(int argc, char **argv) {
  const bench::Args a = bench::parse(argc, argv, {5, 1, 2048, ""});
  const int n = int(a.n);
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
    bench::no_device(argv[0], "cudaGetDeviceCount");
  cudaStream_t s;
  CK(cudaStreamCreate(&s));

  if (bench::wanted(a, "seq_chain")) {
    int *x;
    CK(cudaMalloc(&x, seq::ChainElements * sizeof(int)));
    CK(cudaMemset(x, 0, seq::ChainElements * sizeof(int)));
    bench::Samples t = bench::time_host(a, [&] {
      for (int k = 0; k < seq::ChainLaunches; ++k)
        inc<<<1, seq::ChainElements, 0, s>>>(x, seq::ChainElements);
      CK(cudaStreamSynchronize(s));
    });
    CK(cudaGetLastError());
    std::vector<int> h(seq::ChainElements);
    CK(cudaMemcpy(h.data(), x, h.size() * sizeof(int), cudaMemcpyDeviceToHost));
    for (int v : h)
      if (v != (a.warmup + a.reps) * seq::ChainLaunches)
        bench::fail("seq_chain", "cuda", "wrong count");
    char extra[96];
    std::snprintf(extra, sizeof extra, "launches=%d per_launch_us=%.3f",
                  seq::ChainLaunches, t.quantile(0.5) / seq::ChainLaunches);
    t.report("seq_chain", "cuda", 0, extra);
    CK(cudaFree(x));
  }

  if (bench::wanted(a, "seq_jacobi2d")) {
    const int cn = 64, csweeps = 20;
    std::vector<float> ca(cn * cn), cb(cn * cn);
    seq::jacobi_init(ca, cb, cn);
    std::vector<float> ra = ca, rb = cb;
    float *da = upload(ca), *db = upload(cb);
    jacobi_run(da, db, cn, csweeps, s);
    download(ca, da);
    download(cb, db);
    seq::jacobi_cpu(ra, rb, cn, csweeps);
    if (seq::max_rel_diff(ca, ra) > 1e-5 || seq::max_rel_diff(cb, rb) > 1e-5)
      bench::fail("seq_jacobi2d", "cuda", "differs from the CPU reference");
    CK(cudaFree(da));
    CK(cudaFree(db));

    std::vector<float> A(std::size_t(n) * n), B(std::size_t(n) * n);
    seq::jacobi_init(A, B, n);
    Pad pad(a.pad_kib);
    float *dA = upload(A), *dB = upload(B);
    bench::Samples t = bench::time_host(
        a, [&] { jacobi_run(dA, dB, n, seq::JacobiSweeps, s); });
    CK(cudaGetLastError());
    download(A, dA);
    char extra[128];
    std::snprintf(extra, sizeof extra,
                  "n=%d kernels=%d per_kernel_us=%.3f checksum=%.6e", n,
                  2 * seq::JacobiSweeps,
                  t.quantile(0.5) / (2 * seq::JacobiSweeps), seq::checksum(A));
    t.report("seq_jacobi2d", "cuda", 0, extra);
    CK(cudaFree(dA));
    CK(cudaFree(dB));
  }

  if (bench::wanted(a, "seq_fdtd2d")) {
    const int cn = 64, csteps = 20;
    std::vector<float> cex(cn * cn), cey(cn * cn), chz(cn * cn), cf;
    seq::fdtd_init(cex, cey, chz, cf, cn, cn, csteps);
    std::vector<float> rex = cex, rey = cey, rhz = chz;
    float *dex = upload(cex), *dey = upload(cey), *dhz = upload(chz);
    fdtd_run(dex, dey, dhz, cf, cn, csteps, s);
    download(cex, dex);
    download(chz, dhz);
    seq::fdtd_cpu(rex, rey, rhz, cf, cn, cn, csteps);
    if (seq::max_rel_diff(chz, rhz) > 1e-4 ||
        seq::max_rel_diff(cex, rex) > 1e-4)
      bench::fail("seq_fdtd2d", "cuda", "differs from the CPU reference");
    CK(cudaFree(dex));
    CK(cudaFree(dey));
    CK(cudaFree(dhz));

    std::vector<float> ex(std::size_t(n) * n), ey(std::size_t(n) * n),
        hz(std::size_t(n) * n), fict;
    seq::fdtd_init(ex, ey, hz, fict, n, n, seq::FdtdSteps);
    Pad pad(a.pad_kib);
    float *Ex = upload(ex), *Ey = upload(ey), *Hz = upload(hz);
    bench::Samples t = bench::time_host(
        a, [&] { fdtd_run(Ex, Ey, Hz, fict, n, seq::FdtdSteps, s); });
    CK(cudaGetLastError());
    download(hz, Hz);
    char extra[128];
    std::snprintf(extra, sizeof extra,
                  "n=%d kernels=%d per_kernel_us=%.3f checksum=%.6e", n,
                  3 * seq::FdtdSteps, t.quantile(0.5) / (3 * seq::FdtdSteps),
                  seq::checksum(hz));
    t.report("seq_fdtd2d", "cuda", 0, extra);
    CK(cudaFree(Ex));
    CK(cudaFree(Ey));
    CK(cudaFree(Hz));
  }
  return 0;
}
