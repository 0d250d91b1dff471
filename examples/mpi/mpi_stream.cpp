//===- mpi_stream.cpp - STREAM triad and dot over MPI ranks ---------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// A distributed STREAM triad (a = b + s*c) and dot product (sum a*b) over
// the ranks of MPI_COMM_WORLD. Every rank owns a slice of the global arrays,
// binds to GPU `local rank % ofld::device_count()` of its node and offloads
// its slice with offload(); MPI_Allreduce adds the partial dot products.
// The results are checked against a serial computation of the whole arrays.
//
//   mpirun -np 4 mpi_stream [elements per rank] [iterations]
//                                            (default 2^25 and 20)
//
// The slice stays on the device for all iterations (ofld::region); the
// timings are the kernels' (dot: with its partials' trip to the host and the
// MPI_Allreduce). Each rank's size is the same whatever the number of ranks
// (weak scaling): more ranks on more GPUs move more data in the same time.
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp>

// MPI's C API; the long deprecated C++ bindings stay out.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <span>
#include <vector>

namespace {
constexpr double Scalar = 0.5;
constexpr unsigned DotBlocks = 256, DotThreads = 256;

// The global arrays, element i of all ranks' slices together. Values a
// double holds exactly, so the triad is exact on any device.
double initialB(std::size_t i) { return 1.0 + double(i % 7) * 0.25; }
double initialC(std::size_t i) { return 2.0 - double(i % 5) * 0.125; }
} // namespace

[[offload::kernel]] void triad(double scalar,
                               [[offload::out]] std::span<double> a,
                               std::span<const double> b,
                               std::span<const double> c) {
  std::size_t i = ofld::global_id();
  if (i < a.size())
    a[i] = b[i] + scalar * c[i];
}

// Thread t adds a[i] * b[i] for i = t, t + T, ... (T threads in all); the
// host adds the partials of its rank, MPI those of all ranks.
[[offload::kernel]] void dot(std::span<const double> a,
                             std::span<const double> b,
                             [[offload::out]] std::span<double> partial) {
  std::size_t t = ofld::global_id();
  std::size_t threads = std::size_t(ofld::grid_dim()) * ofld::block_dim();
  double sum = 0.0;
  for (std::size_t i = t; i < a.size(); i += threads)
    sum += a[i] * b[i];
  partial[t] = sum;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);

  std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1 << 25;
  int iterations = argc > 2 ? std::atoi(argv[2]) : 20;
  if (n == 0 || iterations < 2) {
    if (rank == 0)
      std::fprintf(stderr, "usage: mpi_stream [elements per rank > 0] "
                           "[iterations > 1]\n");
    MPI_Finalize();
    return 2;
  }

  // The ranks of this node (MPI-3), and the GPU this rank uses.
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL,
                      &node);
  int localRank = 0, localRanks = 1;
  MPI_Comm_rank(node, &localRank);
  MPI_Comm_size(node, &localRanks);
  int devices = ofld::device_count();
  int device = devices > 0 ? localRank % devices : -1;
  if (device >= 0)
    ofld::set_default_device(device);
  // Devices in use: per node the first min(ranks, devices) of them.
  int nodeDevices = localRank == 0 ? std::min(localRanks, devices) : 0;
  int nodeCount = localRank == 0 ? 1 : 0, usedDevices = 0, nodes = 0;
  MPI_Allreduce(&nodeDevices, &usedDevices, 1, MPI_INT, MPI_SUM,
                MPI_COMM_WORLD);
  MPI_Allreduce(&nodeCount, &nodes, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);

  // This rank's slice: global elements [first, first + n).
  std::size_t first = std::size_t(rank) * n, total = std::size_t(ranks) * n;
  std::vector<double> a(n), b(n), c(n);
  for (std::size_t i = 0; i < n; ++i) {
    b[i] = initialB(first + i);
    c[i] = initialC(first + i);
  }
  std::vector<double> partial(DotBlocks * DotThreads);
  const ofld::launch dotShape{.grid = {DotBlocks}, .block = {DotThreads}};

  // Times of the slowest rank, per iteration.
  std::vector<double> triadTime, dotTime;
  double dotSum = 0.0;
  {
    // b and c move to the device here; a comes back at the closing brace.
    ofld::region resident{ofld::out(a), std::span<const double>(b),
                          std::span<const double>(c)};
    for (int it = 0; it < iterations; ++it) {
      MPI_Barrier(MPI_COMM_WORLD);
      double start = MPI_Wtime();
      offload(triad, Scalar, a, b, c);
      double mine = MPI_Wtime() - start, slowest;
      MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      triadTime.push_back(slowest);

      MPI_Barrier(MPI_COMM_WORLD);
      start = MPI_Wtime();
      offload(dotShape, dot, a, b, partial);
      double local = std::accumulate(partial.begin(), partial.end(), 0.0);
      MPI_Allreduce(&local, &dotSum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      dotTime.push_back(MPI_Wtime() - start);
    }
  }

  // Checks: this rank's triad against the serial formula, element by
  // element; the dot against a serial sum over all ranks' elements.
  double maxError = 0.0;
  for (std::size_t i = 0; i < n; ++i)
    maxError = std::max(maxError, std::fabs(a[i] - (b[i] + Scalar * c[i])));
  double worstError = 0.0;
  MPI_Reduce(&maxError, &worstError, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

  // Who ran where.
  char host[MPI_MAX_PROCESSOR_NAME] = {};
  int hostLength = 0;
  MPI_Get_processor_name(host, &hostLength);
  int where[3] = {localRank, device, devices};
  std::vector<int> everywhere(rank == 0 ? 3 * ranks : 0);
  std::vector<char> hosts(
      rank == 0 ? std::size_t(ranks) * MPI_MAX_PROCESSOR_NAME : 0);
  MPI_Gather(where, 3, MPI_INT, everywhere.data(), 3, MPI_INT, 0,
             MPI_COMM_WORLD);
  MPI_Gather(host, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, hosts.data(),
             MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);

  int status = 0;
  if (rank == 0) {
    // In long double: the reference must be more exact than the sums it
    // checks, whose order differs from rank to rank and device to device.
    long double exact = 0.0L;
    for (std::size_t i = 0; i < total; ++i) {
      double bi = initialB(i);
      exact += (long double)(bi + Scalar * initialC(i)) * bi;
    }
    double serialDot = double(exact);
    double dotError = std::fabs(dotSum - serialDot) / std::fabs(serialDot);
    bool pass = worstError == 0.0 && dotError < 1e-10;

    std::printf("mpi_stream: %d rank(s) on %d node(s), %zu elements per rank "
                "(%.1f MB per array), %d iterations\n",
                ranks, nodes, n, double(n * sizeof(double)) * 1e-6, iterations);
    for (int r = 0; r < ranks; ++r) {
      const int *w = &everywhere[3 * r];
      const char *h = &hosts[std::size_t(r) * MPI_MAX_PROCESSOR_NAME];
      if (w[1] >= 0)
        std::printf("rank %d: %s, local rank %d, device %d of %d\n", r, h, w[0],
                    w[1], w[2]);
      else
        std::printf("rank %d: %s, local rank %d, no offload device: host "
                    "CPU\n",
                    r, h, w[0]);
    }
    // The first iteration warms up (device images load, pages fault in).
    auto best = [](const std::vector<double> &t) {
      return *std::min_element(t.begin() + 1, t.end());
    };
    double triadBytes = 3.0 * double(total) * sizeof(double);
    double dotBytes = 2.0 * double(total) * sizeof(double);
    int per = usedDevices > 0 ? usedDevices : ranks;
    const char *perWhat = usedDevices > 0 ? "device" : "rank";
    double triadRate = triadBytes * 1e-9 / best(triadTime);
    double dotRate = dotBytes * 1e-9 / best(dotTime);
    std::printf("triad: %.1f GB/s in all, %.1f GB/s per %s (%d %s%s), best "
                "%.6f s\n",
                triadRate, triadRate / per, perWhat, per, perWhat,
                per == 1 ? "" : "s", best(triadTime));
    std::printf("dot:   %.1f GB/s in all, %.1f GB/s per %s (with "
                "MPI_Allreduce), best %.6f s\n",
                dotRate, dotRate / per, perWhat, best(dotTime));
    std::printf("check: triad max error %g, dot %.10g (serial %.10g, "
                "relative error %.1e): %s\n",
                worstError, dotSum, serialDot, dotError,
                pass ? "PASS" : "FAIL");
    status = pass ? 0 : 1;
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Comm_free(&node);
  MPI_Finalize();
  return status;
}
