// What OpenMP compilers other than the plugin need told or spelled
// differently, in a program that compiles with the plugin as it is:
//  * no #include <offload/offload.hpp> (the plugin includes it itself);
//  * namespace-scope tables that kernels read (declare target);
//  * a helper that takes a std::span by value, called from a kernel (g++
//    refuses by-value spans in device code: ofld::bridge::span_param);
//  * shared arrays declared on one line (g++ names untagged arrays by their
//    line; `lo, hi` declared together share the spelling of their type,
//    which makes them one array under the plugin: the rewrite keeps that);
//  * the same buffer passed as std::span<const T> and std::span<T>, and two
//    spans that partly overlap (mapped as their union, as the plugin does;
//    OpenMP refuses to extend a mapping);
//  * consecutive launches that share a vector (a launch group);
//  * a kernel that synchronises blocks larger than g++'s NVPTX teams hold,
//    between launches on data a region keeps on the device: it runs on the
//    host, with the device's copy of the data;
//  * the same kernel in blocks of 8, which every g++ NVPTX team holds.
#include <cstdio>
#include <span>
#include <vector>

namespace coeffs {
const float table[4] = {0.5f, 1.0f, 2.0f, 4.0f};
}
constexpr int lut[3] = {1, 2, 3};
static const double weights[] = {0.25, 0.75};

float weigh(std::span<const float> in, std::size_t i) {
  return in[i] * coeffs::table[i % 4] + float(lut[i % 3] * weights[i % 2]);
}

[[offload::kernel]] void weighted(std::span<const float> in,
                                  std::span<float> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = weigh(in, i);
}

[[offload::kernel]] void swap_halves(std::span<int> v) {
  ofld::shared_array<int, 32> lo, hi;
  unsigned t = ofld::thread_id();
  std::size_t base = std::size_t(ofld::block_id()) * 64;
  lo[t] = v[base + t];
  hi[t] = v[base + 32 + t];
  ofld::sync_threads();
  v[base + t] = hi[t];
  v[base + 32 + t] = lo[t];
}

[[offload::kernel]] void add_one(std::span<const float> in,
                                 std::span<float> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = in[i] + 1.0f;
}

[[offload::kernel]] void add(std::span<const float> a, std::span<const float> b,
                             std::span<float> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = a[i] + b[i];
}

[[offload::kernel]] void scale(std::span<float> v, float a) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] *= a;
}

[[offload::kernel]] void reverse_blocks(std::span<float> v) {
  ofld::shared_array<float, 40> tile;
  unsigned t = ofld::thread_id();
  std::size_t i = ofld::global_id();
  tile[t] = v[i];
  ofld::sync_threads();
  v[i] = tile[ofld::block_dim() - 1 - t];
}

int main() {
  std::vector<float> in(1000), out(1000);
  for (int i = 0; i < 1000; ++i)
    in[i] = float(i);
  offload(weighted, in, out);
  double sum = 0;
  for (float x : out)
    sum += x;

  std::vector<int> v(256);
  for (int i = 0; i < 256; ++i)
    v[i] = i;
  offload(ofld::launch{.grid = {4}, .block = {32}}, swap_halves, v);

  // The same buffer, read and written: in place.
  std::vector<float> w(1000, 1.0f);
  offload(add_one, w, w);
  int wrong = 0;
  for (float x : w)
    wrong += x != 2.0f;
  // Two inputs that overlap in [400, 600): sums[i] = in[i] + in[i + 400].
  std::span<const float> all(in);
  std::vector<float> sums(600);
  offload(add, all.first(600), all.subspan(400), sums);

  // A launch group: w stays on the device between the three launches.
  offload(scale, w, 2.0f);
  offload(scale, w, 0.5f);
  offload(add_one, w, w);

  // A kernel that synchronises blocks of 40, on data held on the device.
  std::vector<float> r(1000);
  for (int i = 0; i < 1000; ++i)
    r[i] = float(i);
  {
    ofld::region held{std::span<float>(r)};
    offload(scale, r, 2.0f);
    offload(ofld::launch{.grid = {25}, .block = {40}}, reverse_blocks, r);
    offload(scale, r, 0.5f);
  }
  std::vector<float> q(40);
  for (int i = 0; i < 40; ++i)
    q[i] = float(i);
  offload(ofld::launch{.grid = {5}, .block = {8}}, reverse_blocks, q);

  std::printf("sum = %.2f, v[0] = %d v[32] = %d v[255] = %d, in place: %d "
              "wrong, sums[0] = %g sums[599] = %g, w[0] = %g w[999] = %g, "
              "r[0] = %g r[39] = %g r[999] = %g, q[0] = %g q[39] = %g\n",
              sum, v[0], v[32], v[255], wrong, sums[0], sums[599], w[0], w[999],
              r[0], r[39], r[999], q[0], q[39]);
}
