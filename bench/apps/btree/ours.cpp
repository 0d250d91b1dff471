//===- bench/apps/btree/ours.cpp - B+tree queries with offload() ----------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// findK and findRangeK of ref.hpp, one block of 256 threads per query, the
// tree (2 KB nodes), the records, the queries, the walks' per-query state
// and the answers resident in an ofld::region. One repetition is both
// kernels (two offload() calls, waited for once).
//
// A port of this kind was reported to hang on the GPU after its first query
// kernel (1M keys; 20,000 keys completed): the program prints a line at
// every phase (tree built, data on the device, each kernel's first run,
// the timed runs, the results back) and flushes it, so that where it stops
// is known; --keys sets the tree's size.
//
//   apps_btree_ours [--n=QUERIES (65535)] [--keys=K (1000000)]
//                   [--reps=R (20)] [--warmup=W (3)]
//
//===----------------------------------------------------------------------===//

#include "ref.hpp"

#include <cstdio>
#include <span>
#include <vector>

using btree::knode;
using btree::record;

/// The phase reached, on stdout at once.
static void phase(const char *what) {
  std::printf("btree: %s\n", what);
  std::fflush(stdout);
}

[[offload::kernel]] void find_k(long height, std::span<const knode> knodes,
                                std::span<const record> records,
                                std::span<long> curr, std::span<long> offset,
                                std::span<const int> keys,
                                APPS_OUT std::span<int> ans) {
  const std::size_t q = ofld::block_id();
  const unsigned t = ofld::thread_id();
  if (q >= keys.size())
    return;
  if (t == 0)
    curr[q] = offset[q] = 0;
  ofld::sync_threads();
  const int key = keys[q];
  const long elems = long(knodes.size());
  for (long level = 0; level < height; ++level) {
    const knode &node = knodes[std::size_t(curr[q])];
    if (node.keys[t] <= key && key < node.keys[t + 1] &&
        node.indices[t] < elems)
      offset[q] = node.indices[t];
    ofld::sync_threads();
    if (t == 0)
      curr[q] = offset[q];
    ofld::sync_threads();
  }
  const knode &leaf = knodes[std::size_t(curr[q])];
  if (leaf.keys[t] <= key && key < leaf.keys[t + 1])
    ans[q] = leaf.keys[t] == key ? records[std::size_t(leaf.indices[t])].value
                                 : btree::kAbsent;
}

[[offload::kernel]] void
find_range_k(long height, std::span<const knode> knodes, std::span<long> curr,
             std::span<long> offset, std::span<long> last,
             std::span<long> offset2, std::span<const int> starts,
             std::span<const int> ends, APPS_OUT std::span<int> recstart,
             APPS_OUT std::span<int> reclength) {
  const std::size_t q = ofld::block_id();
  const unsigned t = ofld::thread_id();
  if (q >= starts.size())
    return;
  if (t == 0) {
    curr[q] = offset[q] = 0;
    last[q] = offset2[q] = 0;
  }
  ofld::sync_threads();
  const int start = starts[q], end = ends[q];
  const long elems = long(knodes.size());
  for (long level = 0; level < height; ++level) {
    const knode &a = knodes[std::size_t(curr[q])];
    const knode &b = knodes[std::size_t(last[q])];
    if (a.keys[t] <= start && start < a.keys[t + 1] && a.indices[t] < elems)
      offset[q] = a.indices[t];
    if (b.keys[t] <= end && end < b.keys[t + 1] && b.indices[t] < elems)
      offset2[q] = b.indices[t];
    ofld::sync_threads();
    if (t == 0) {
      curr[q] = offset[q];
      last[q] = offset2[q];
    }
    ofld::sync_threads();
  }
  const knode &a = knodes[std::size_t(curr[q])];
  if (a.keys[t] <= start && start < a.keys[t + 1])
    recstart[q] = a.indices[t] + (a.keys[t] == start ? 0 : 1);
  // The length needs the start, which another thread of the block wrote.
  ofld::sync_threads();
  const knode &b = knodes[std::size_t(last[q])];
  if (b.keys[t] <= end && end < b.keys[t + 1])
    reclength[q] = b.indices[t] + 1 - recstart[q];
}

int main(int argc, char **argv) {
  const std::size_t nkeys = apps::take_option(argc, argv, "keys", 1000000);
  bench::Args a = bench::parse(argc, argv, {20, 3, 65535, ""});
  if (ofld::device_count() < 1)
    bench::no_device(argv[0], "ofld::device_count() is 0");
  const std::size_t q = a.n;
  const btree::tree tr = btree::make_tree(nkeys);
  std::vector<int> keys, starts, ends;
  btree::make_queries(tr, q, keys, starts, ends);
  std::vector<int> ans(q), recstart(q), reclength(q);
  std::vector<long> curr(q), offset(q), last(q), offset2(q);
  for (auto *v : {&ans, &recstart, &reclength})
    apps::poison(*v);
  for (auto *v : {&curr, &offset, &last, &offset2})
    apps::poison(*v);
  char line[160];
  std::snprintf(line, sizeof line,
                "tree built: %zu keys, %zu nodes of %zu bytes (%.1f MB), "
                "height %ld; %zu queries",
                nkeys, tr.nodes.size(), sizeof(knode),
                double(tr.nodes.size() * sizeof(knode)) / 1e6, tr.height, q);
  phase(line);
  const ofld::launch shape{.grid = {q}, .block = {btree::kThreads}};
  bench::Samples s;
  {
    ofld::region resident{
        std::span<const knode>(tr.nodes), std::span<const record>(tr.records),
        std::span<const int>(keys),       std::span<const int>(starts),
        std::span<const int>(ends),       std::span<long>(curr),
        std::span<long>(offset),          std::span<long>(last),
        std::span<long>(offset2),         std::span<int>(ans),
        std::span<int>(recstart),         std::span<int>(reclength)};
    phase("data on device");
    offload(shape, find_k, tr.height, tr.nodes, tr.records, curr, offset, keys,
            ans);
    ofld::wait();
    phase("findK done");
    offload(shape, find_range_k, tr.height, tr.nodes, curr, offset, last,
            offset2, starts, ends, recstart, reclength);
    ofld::wait();
    phase("findRangeK done");
    s = bench::time_host(a, [&] {
      offload(shape, find_k, tr.height, tr.nodes, tr.records, curr, offset,
              keys, ans);
      offload(shape, find_range_k, tr.height, tr.nodes, curr, offset, last,
              offset2, starts, ends, recstart, reclength);
      // Launches on resident data return once queued (stream order):
      // wait for them, as the CUDA version synchronises.
      ofld::wait();
    });
    phase("timed repetitions done");
  }
  phase("results back");
  btree::check("ours", tr, keys, starts, ends, ans, recstart, reclength);
  std::snprintf(line, sizeof line, "size=%zu keys=%zu", q, nkeys);
  s.report(btree::kMeasure, "ours", 0, line);
  return 0;
}
