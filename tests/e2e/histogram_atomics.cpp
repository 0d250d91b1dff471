//===- histogram_atomics.cpp - end-to-end: histograms with atomics --------===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//
//
// Histograms of random, skewed data (many threads hit the same bins):
//  * privatised: a block counts into a shared_array with ofld::atomic_add,
//    then adds its counts to the global bins;
//  * global: float weights added straight to global bins (small integers, so
//    every order of the additions gives the exact sum);
//  * std::atomic_ref on a global counter.
// Every bin is checked exactly against a CPU reference.
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp>

#include <atomic>
#include <cstdio>
#include <random>
#include <span>
#include <vector>

constexpr unsigned Bins = 97;

[[offload::kernel]] void histogram_shared(std::span<const unsigned> data,
                                          std::span<unsigned> bins) {
  // The spelling with a named tag: one array per instantiation also inside
  // templates, and what g++ 12 needs there.
  ofld::shared_array<unsigned, Bins, struct local_bins> local;
  unsigned t = ofld::thread_id(), nt = ofld::block_dim();
  for (unsigned b = t; b < Bins; b += nt)
    local[b] = 0;
  ofld::sync_threads();
  std::size_t stride = std::size_t(nt) * ofld::grid_dim();
  for (std::size_t i = ofld::global_id(); i < data.size(); i += stride)
    ofld::atomic_add(&local[data[i] % Bins], 1u);
  ofld::sync_threads();
  for (unsigned b = t; b < Bins; b += nt)
    if (local[b])
      ofld::atomic_add(&bins[b], local[b]);
}

[[offload::kernel]] void histogram_weighted(std::span<const unsigned> data,
                                            std::span<const float> weight,
                                            std::span<float> bins,
                                            unsigned long long &seen) {
  std::size_t i = ofld::global_id();
  if (i >= data.size())
    return;
  float old = ofld::atomic_add(&bins[data[i] % Bins], weight[i]);
  (void)old;
  std::atomic_ref<unsigned long long>(seen).fetch_add(
      1, std::memory_order_relaxed);
}

int main() {
  std::mt19937 gen(7);
  // Skewed: most values fall into few bins.
  std::geometric_distribution<unsigned> value(0.05);
  std::uniform_int_distribution<int> w(1, 8);
  std::vector<unsigned> data(1 << 20 | 12345);
  std::vector<float> weight(data.size());
  for (std::size_t i = 0; i < data.size(); ++i) {
    data[i] = value(gen);
    weight[i] = float(w(gen));
  }
  std::vector<unsigned> ref(Bins, 0);
  std::vector<double> wref(Bins, 0);
  for (std::size_t i = 0; i < data.size(); ++i) {
    ++ref[data[i] % Bins];
    wref[data[i] % Bins] += weight[i];
  }

  std::vector<unsigned> bins(Bins, 0);
  offload(ofld::launch{.grid = {64}, .block = {128}}, histogram_shared, data,
          bins);
  bool ok = true;
  unsigned bad = 0;
  for (unsigned b = 0; b < Bins; ++b)
    bad += bins[b] != ref[b];
  std::printf("shared: bin0 %u (reference %u), %u bins differ\n", bins[0],
              ref[0], bad);
  ok &= bad == 0;

  std::vector<float> wbins(Bins, 0.0f);
  unsigned long long seen = 0;
  // One thread per element of data.
  offload(ofld::launch{.grid = {(data.size() + 255) / 256}},
          histogram_weighted, data, weight, wbins, seen);
  bad = 0;
  for (unsigned b = 0; b < Bins; ++b)
    bad += double(wbins[b]) != wref[b];
  std::printf("weighted: bin0 %.1f (reference %.1f), %u bins differ, "
              "seen %llu of %zu\n",
              wbins[0], wref[0], bad, seen, data.size());
  ok &= bad == 0 && seen == data.size();
  std::printf("%s\n", ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
