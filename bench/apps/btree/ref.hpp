//===- bench/apps/btree/ref.hpp - B+tree queries: tree, reference, check --===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// Range queries on a B+tree in the structure of Rodinia's b+tree: the tree
// is an array of nodes of about 2 KB (order kOrder = 256: keys and indices
// of kOrder + 1 slots, the root first, a level after the other), every
// query a block of kOrder threads that walks the tree from the root a level
// at a time, every thread comparing one key slot; the node a query is at
// lives in global arrays (one entry per query, as Rodinia's currKnode and
// offset), moved on by thread 0 between two barriers.
//   findK: one walk per query key; at the leaf, the record's value (or
//     kAbsent where the key is not in the tree);
//   findRangeK: two walks at once, to the leaves of a range's start and
//     end; the records' start index (the first key >= start) and the
//     range's length (keys in [start, end]).
// A node's slots: in a leaf, its keys in order (indices: the records'
// positions), in an inner node the smallest key of every child (the first
// INT_MIN; indices: the children's positions in the array), the unused ones
// INT_MAX, so that for any key exactly one thread t has keys[t] <= key <
// keys[t + 1].
//
// The tree is bulk-loaded from sorted keys (about 3 apart): leaves of
// kOrder - 1 keys, inner nodes of kOrder children. Half the findK keys are
// in the tree; ranges are kRange wide (about 1,000 keys).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_APPS_BTREE_REF_HPP
#define OFFLOAD_BENCH_APPS_BTREE_REF_HPP

#include "../common/apps.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

namespace btree {

constexpr int kOrder = 256;
constexpr unsigned kThreads = kOrder; ///< one block per query
constexpr int kAbsent = -2, kRange = 3000;
const char *const kMeasure = "app_btree";

/// Rodinia's knode: 2068 bytes.
struct knode {
  int location;
  int indices[kOrder + 1];
  int keys[kOrder + 1];
  bool is_leaf;
  int num_keys;
};

struct record {
  int value;
};

struct tree {
  std::vector<int> keys; ///< sorted; key r is record r's
  std::vector<record> records;
  std::vector<knode> nodes; ///< nodes[0] is the root
  long height = 0;          ///< inner levels above the leaves
};

inline knode empty_node(int location, bool leaf) {
  knode k{};
  k.location = location;
  k.is_leaf = leaf;
  std::fill(k.keys, k.keys + kOrder + 1, INT_MAX);
  std::fill(k.indices, k.indices + kOrder + 1, -1);
  return k;
}

inline tree make_tree(std::size_t n) {
  tree t;
  t.keys.resize(n);
  t.records.resize(n);
  for (std::size_t r = 0; r < n; ++r) {
    t.keys[r] = int(3 * r + 1 + apps::pcg_hash(std::uint32_t(r) ^ 77u) % 2);
    t.records[r].value = int(apps::pcg_hash(std::uint32_t(r) + 991u) >> 1);
  }
  // Levels bottom-up; a node's indices point into the level below.
  std::vector<std::vector<knode>> levels(1);
  std::vector<int> lows; // smallest key of every node of the level
  for (std::size_t s = 0; s < n; s += kOrder - 1) {
    knode k = empty_node(0, true);
    const std::size_t e = std::min(n, s + kOrder - 1);
    for (std::size_t r = s; r < e; ++r) {
      k.keys[r - s] = t.keys[r];
      k.indices[r - s] = int(r);
    }
    k.num_keys = int(e - s);
    levels[0].push_back(k);
    lows.push_back(t.keys[s]);
  }
  while (levels.back().size() > 1) {
    const std::vector<knode> &below = levels.back();
    std::vector<knode> up;
    std::vector<int> up_lows;
    for (std::size_t s = 0; s < below.size(); s += kOrder) {
      knode k = empty_node(0, false);
      const std::size_t e = std::min(below.size(), s + kOrder);
      for (std::size_t c = s; c < e; ++c) {
        k.keys[c - s] = c == s ? INT_MIN : lows[c];
        k.indices[c - s] = int(c);
      }
      k.num_keys = int(e - s);
      up.push_back(k);
      up_lows.push_back(lows[s]);
    }
    levels.push_back(std::move(up));
    lows = std::move(up_lows);
  }
  // Root level first: a level's children start after it.
  t.height = long(levels.size()) - 1;
  std::size_t first = 0;
  for (std::size_t l = levels.size(); l-- > 0;) {
    const std::size_t below = first + levels[l].size();
    for (knode &k : levels[l]) {
      k.location = int(first + std::size_t(&k - levels[l].data()));
      if (!k.is_leaf)
        for (int c = 0; c < k.num_keys; ++c)
          k.indices[c] += int(below);
      t.nodes.push_back(k);
    }
    first = below;
  }
  return t;
}

/// The queries: findK keys (every other one in the tree) and range starts
/// and ends, all within the tree's keys.
inline void make_queries(const tree &t, std::size_t q, std::vector<int> &keys,
                         std::vector<int> &starts, std::vector<int> &ends) {
  const std::uint32_t lo = std::uint32_t(t.keys.front()),
                      span = std::uint32_t(t.keys.back()) - lo + 1;
  keys.resize(q);
  starts.resize(q);
  ends.resize(q);
  for (std::size_t i = 0; i < q; ++i) {
    const std::uint32_t h = apps::pcg_hash(std::uint32_t(i) ^ 0xabcdefu);
    keys[i] =
        i % 2 ? int(lo + h % span) : t.keys[h % std::uint32_t(t.keys.size())];
    starts[i] = int(lo + apps::pcg_hash(std::uint32_t(i) + 0x1234567u) % span);
    ends[i] = starts[i] + kRange;
  }
}

/// Every answer against binary searches of the sorted keys.
inline void check(const char *impl, const tree &t, const std::vector<int> &keys,
                  const std::vector<int> &starts, const std::vector<int> &ends,
                  const std::vector<int> &ans, const std::vector<int> &recstart,
                  const std::vector<int> &reclength) {
  std::size_t found = 0;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    auto at = std::lower_bound(t.keys.begin(), t.keys.end(), keys[i]);
    const bool in = at != t.keys.end() && *at == keys[i];
    const int want =
        in ? t.records[std::size_t(at - t.keys.begin())].value : kAbsent;
    found += in;
    if (ans[i] != want)
      apps::failf(kMeasure, impl, "findK query %zu (key %d): %d, expected %d",
                  i, keys[i], ans[i], want);
    const int s =
        int(std::lower_bound(t.keys.begin(), t.keys.end(), starts[i]) -
            t.keys.begin());
    const int e = int(std::upper_bound(t.keys.begin(), t.keys.end(), ends[i]) -
                      t.keys.begin());
    if (recstart[i] != s || reclength[i] != e - s)
      apps::failf(kMeasure, impl,
                  "findRangeK query %zu [%d, %d]: start %d length %d, "
                  "expected %d %d",
                  i, starts[i], ends[i], recstart[i], reclength[i], s, e - s);
  }
  char what[160];
  std::snprintf(what, sizeof what,
                "%zu findK (%zu keys found) and %zu findRangeK queries "
                "against binary searches",
                keys.size(), found, keys.size());
  apps::checked(kMeasure, impl, what);
}

} // namespace btree

#endif // OFFLOAD_BENCH_APPS_BTREE_REF_HPP
