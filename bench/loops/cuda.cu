//===- bench/loops/cuda.cu - issue 30's loops in CUDA ---------------------===//
//
// Part of the offload project's benchmark suite (issue 30).
//
//===----------------------------------------------------------------------===//
//
// ours.cpp's three loops as a CUDA programmer writes them: cudaMalloc and
// cudaMemcpy of the arrays before the loop, <<<>>> launches on the default
// stream in it, cudaMemcpy of the results after it (the BFS copies its flag
// in and out every level). One repetition, as ours, from host data to
// results on the host; each loop is first checked against the CPU.
//
//   loops_cuda [--only=...] [--n=N (2048)] [--reps=R (5)] [--warmup=W (1)]
//
//===----------------------------------------------------------------------===//

#define BENCH_SEQ_HD __host__ __device__
#include "../apps/bfs/kernels.cuh"
#include "../apps/common/cuda_time.cuh"
#include "../common/bench.hpp"
#include "../common/cuda_check.cuh"
#include "common.hpp"

#include <cstdint>
#include <vector>

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

template <class T> T *to_device(const std::vector<T> &v) {
  T *d = nullptr;
  CK(cudaMalloc(&d, v.size() * sizeof(T)));
  CK(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <class T> void to_host(std::vector<T> &v, const T *d) {
  CK(cudaMemcpy(v.data(), d, v.size() * sizeof(T), cudaMemcpyDeviceToHost));
}

dim3 grid2d(int n) {
  return dim3((n + seq::BlockX - 1) / seq::BlockX,
              (n + seq::BlockY - 1) / seq::BlockY);
}

void jacobi_run(std::vector<float> &a, std::vector<float> &b, int n,
                int sweeps) {
  float *da = to_device(a), *db = to_device(b);
  const dim3 g = grid2d(n), blk(seq::BlockX, seq::BlockY);
  for (int t = 0; t < sweeps; ++t) {
    jacobi<<<g, blk>>>(da, db, n);
    jacobi<<<g, blk>>>(db, da, n);
  }
  CK(cudaGetLastError());
  to_host(a, da);
  to_host(b, db);
  CK(cudaFree(da));
  CK(cudaFree(db));
}

void fdtd_run(std::vector<float> &ex, std::vector<float> &ey,
              std::vector<float> &hz, const std::vector<float> &fict, int n,
              int steps) {
  float *dex = to_device(ex), *dey = to_device(ey), *dhz = to_device(hz);
  const dim3 g = grid2d(n), blk(seq::BlockX, seq::BlockY);
  for (int t = 0; t < steps; ++t) {
    ey_step<<<g, blk>>>(dey, dhz, fict[std::size_t(t)], n, n);
    ex_step<<<g, blk>>>(dex, dhz, n, n);
    hz_step<<<g, blk>>>(dhz, dex, dey, n, n);
  }
  CK(cudaGetLastError());
  to_host(ex, dex);
  to_host(ey, dey);
  to_host(hz, dhz);
  CK(cudaFree(dex));
  CK(cudaFree(dey));
  CK(cudaFree(dhz));
}

int bfs_run(const bfs::graph &g, std::vector<int> &cost) {
  const int n = int(cost.size());
  int *doff = to_device(g.offsets), *dedge = to_device(g.edges), *dcost;
  u8 *dmask, *dnext, *dvisited;
  bool *dchanged;
  CK(cudaMalloc(&dcost, cost.size() * sizeof(int)));
  CK(cudaMalloc(&dmask, cost.size()));
  CK(cudaMalloc(&dnext, cost.size()));
  CK(cudaMalloc(&dvisited, cost.size()));
  CK(cudaMalloc(&dchanged, sizeof(bool)));
  const unsigned blocks = (unsigned(n) + bfs::kBlock - 1) / bfs::kBlock;
  bfs_reset<<<blocks, bfs::kBlock>>>(dmask, dnext, dvisited, dcost, n);
  int levels = 0;
  bool changed = true;
  while (changed) {
    changed = false;
    CK(cudaMemcpy(dchanged, &changed, sizeof(bool), cudaMemcpyHostToDevice));
    bfs_expand<<<blocks, bfs::kBlock>>>(doff, dedge, dmask, dnext, dvisited,
                                        dcost, n);
    bfs_update<<<blocks, bfs::kBlock>>>(dmask, dnext, dvisited, dchanged, n);
    CK(cudaMemcpy(&changed, dchanged, sizeof(bool), cudaMemcpyDeviceToHost));
    ++levels;
  }
  to_host(cost, dcost);
  for (void *p : {(void *)doff, (void *)dedge, (void *)dcost, (void *)dmask,
                  (void *)dnext, (void *)dvisited, (void *)dchanged})
    CK(cudaFree(p));
  return levels;
}

} // namespace

int main(int argc, char **argv) {
  const bench::Args a = bench::parse(argc, argv, {5, 1, 2048, ""});
  apps::require_cuda_device(argv[0]);
  CK(cudaFree(nullptr));

  if (bench::wanted(a, "loops_jacobi2d")) {
    const int n = int(a.n), k = loops::JacobiSweeps;
    std::vector<float> a0(std::size_t(n) * n), b0(a0.size());
    seq::jacobi_init(a0, b0, n);
    std::vector<float> ra = a0, rb = b0, A = a0, B = b0;
    seq::jacobi_cpu(ra, rb, n, 2);
    jacobi_run(A, B, n, 2);
    loops::check_close("loops_jacobi2d", "cuda", A, ra, 1e-5);
    bench::Samples s = bench::time_host(a, [&] {
      A = a0, B = b0;
      jacobi_run(A, B, n, k);
    });
    s.report("loops_jacobi2d", "cuda", 0, "kernels=200");
  }

  if (bench::wanted(a, "loops_fdtd2d")) {
    const int n = int(a.n), k = loops::FdtdSteps;
    std::vector<float> ex0(std::size_t(n) * n), ey0(ex0.size()),
        hz0(ex0.size()), fict;
    seq::fdtd_init(ex0, ey0, hz0, fict, n, n, k);
    std::vector<float> rex = ex0, rey = ey0, rhz = hz0;
    seq::fdtd_cpu(rex, rey, rhz, fict, n, n, 2);
    std::vector<float> ex = ex0, ey = ey0, hz = hz0;
    fdtd_run(ex, ey, hz, fict, n, 2);
    loops::check_close("loops_fdtd2d", "cuda", hz, rhz, 1e-4);
    bench::Samples s = bench::time_host(a, [&] {
      ex = ex0, ey = ey0, hz = hz0;
      fdtd_run(ex, ey, hz, fict, n, k);
    });
    s.report("loops_fdtd2d", "cuda", 0, "kernels=300");
  }

  if (bench::wanted(a, "loops_bfs")) {
    const bfs::graph g = bfs::make_graph(loops::bfs_nodes(a.n));
    std::vector<int> cost(loops::bfs_nodes(a.n));
    int levels = bfs_run(g, cost);
    bfs::check("cuda", g, cost, levels);
    bench::Samples s = bench::time_host(a, [&] { levels = bfs_run(g, cost); });
    char extra[64];
    std::snprintf(extra, sizeof extra, "levels=%d", levels);
    s.report("loops_bfs", "cuda", 0, extra);
  }
  return 0;
}
