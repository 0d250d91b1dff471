//===- bench/apps/btree/cuda.cu - B+tree queries in CUDA ------------------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The baseline of btree/ours.cpp: the same two kernels, a block of 256
// threads per query, on cudaMalloc'ed data; the same phase lines, so that
// the two programs can be compared where one stops.
//
//===----------------------------------------------------------------------===//

#include "../common/cuda_time.cuh"
#include "ref.hpp"

#include <cstdio>
#include <vector>

using btree::knode;
using btree::record;

static void phase(const char *what) {
  std::printf("btree: %s\n", what);
  std::fflush(stdout);
}

__global__ void find_k(long height, const knode *knodes, long elems,
                       const record *records, long *curr, long *offset,
                       const int *keys, int *ans) {
  const int q = blockIdx.x, t = threadIdx.x;
  if (t == 0)
    curr[q] = offset[q] = 0;
  __syncthreads();
  const int key = keys[q];
  for (long level = 0; level < height; ++level) {
    const knode &node = knodes[curr[q]];
    if (node.keys[t] <= key && key < node.keys[t + 1] &&
        node.indices[t] < elems)
      offset[q] = node.indices[t];
    __syncthreads();
    if (t == 0)
      curr[q] = offset[q];
    __syncthreads();
  }
  const knode &leaf = knodes[curr[q]];
  if (leaf.keys[t] <= key && key < leaf.keys[t + 1])
    ans[q] =
        leaf.keys[t] == key ? records[leaf.indices[t]].value : btree::kAbsent;
}

__global__ void find_range_k(long height, const knode *knodes, long elems,
                             long *curr, long *offset, long *last,
                             long *offset2, const int *starts, const int *ends,
                             int *recstart, int *reclength) {
  const int q = blockIdx.x, t = threadIdx.x;
  if (t == 0) {
    curr[q] = offset[q] = 0;
    last[q] = offset2[q] = 0;
  }
  __syncthreads();
  const int start = starts[q], end = ends[q];
  for (long level = 0; level < height; ++level) {
    const knode &a = knodes[curr[q]];
    const knode &b = knodes[last[q]];
    if (a.keys[t] <= start && start < a.keys[t + 1] && a.indices[t] < elems)
      offset[q] = a.indices[t];
    if (b.keys[t] <= end && end < b.keys[t + 1] && b.indices[t] < elems)
      offset2[q] = b.indices[t];
    __syncthreads();
    if (t == 0) {
      curr[q] = offset[q];
      last[q] = offset2[q];
    }
    __syncthreads();
  }
  const knode &a = knodes[curr[q]];
  if (a.keys[t] <= start && start < a.keys[t + 1])
    recstart[q] = a.indices[t] + (a.keys[t] == start ? 0 : 1);
  // The length needs the start, which another thread of the block wrote.
  __syncthreads();
  const knode &b = knodes[last[q]];
  if (b.keys[t] <= end && end < b.keys[t + 1])
    reclength[q] = b.indices[t] + 1 - recstart[q];
}

int main(int argc, char **argv) {
  const std::size_t nkeys = apps::take_option(argc, argv, "keys", 1000000);
  bench::Args a = bench::parse(argc, argv, {20, 3, 65535, ""});
  apps::require_cuda_device(argv[0]);
  const std::size_t q = a.n;
  const btree::tree tr = btree::make_tree(nkeys);
  std::vector<int> keys, starts, ends;
  btree::make_queries(tr, q, keys, starts, ends);
  char line[160];
  std::snprintf(line, sizeof line,
                "tree built: %zu keys, %zu nodes of %zu bytes (%.1f MB), "
                "height %ld; %zu queries",
                nkeys, tr.nodes.size(), sizeof(knode),
                double(tr.nodes.size() * sizeof(knode)) / 1e6, tr.height, q);
  phase(line);
  const long elems = long(tr.nodes.size());
  knode *dnodes = apps::to_device(tr.nodes.data(), tr.nodes.size());
  record *drecords = apps::to_device(tr.records.data(), tr.records.size());
  int *dkeys = apps::to_device(keys.data(), q);
  int *dstarts = apps::to_device(starts.data(), q);
  int *dends = apps::to_device(ends.data(), q);
  long *dcurr = apps::poisoned_output<long>(q);
  long *doffset = apps::poisoned_output<long>(q);
  long *dlast = apps::poisoned_output<long>(q);
  long *doffset2 = apps::poisoned_output<long>(q);
  int *dans = apps::poisoned_output<int>(q);
  int *drecstart = apps::poisoned_output<int>(q);
  int *dreclength = apps::poisoned_output<int>(q);
  phase("data on device");
  const unsigned grid = unsigned(q);
  find_k<<<grid, btree::kThreads>>>(tr.height, dnodes, elems, drecords, dcurr,
                                    doffset, dkeys, dans);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  phase("findK done");
  find_range_k<<<grid, btree::kThreads>>>(tr.height, dnodes, elems, dcurr,
                                          doffset, dlast, doffset2, dstarts,
                                          dends, drecstart, dreclength);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  phase("findRangeK done");
  std::snprintf(line, sizeof line, "size=%zu keys=%zu", q, nkeys);
  apps::time_cuda(a, btree::kMeasure, line, [&] {
    find_k<<<grid, btree::kThreads>>>(tr.height, dnodes, elems, drecords, dcurr,
                                      doffset, dkeys, dans);
    find_range_k<<<grid, btree::kThreads>>>(tr.height, dnodes, elems, dcurr,
                                            doffset, dlast, doffset2, dstarts,
                                            dends, drecstart, dreclength);
  });
  phase("timed repetitions done");
  std::vector<int> ans(q), recstart(q), reclength(q);
  apps::from_device(ans.data(), dans, q);
  apps::from_device(recstart.data(), drecstart, q);
  apps::from_device(reclength.data(), dreclength, q);
  phase("results back");
  btree::check("cuda", tr, keys, starts, ends, ans, recstart, reclength);
  for (void *p :
       {(void *)dnodes, (void *)drecords, (void *)dkeys, (void *)dstarts,
        (void *)dends, (void *)dcurr, (void *)doffset, (void *)dlast,
        (void *)doffset2, (void *)dans, (void *)drecstart, (void *)dreclength})
    CK(cudaFree(p));
  return 0;
}
