//===- copy_fill.cpp - end-to-end: ofld::copy and ofld::fill of any span --===//
//
// Part of the offload project's tests. cudaMemcpy and cudaMemset as a port
// uses them: host to device, device to host, device to device at offsets,
// fills of sub-spans (a float, a double, a 12-byte struct), on spans of
// device buffers, of a region's data (its device copy) and of host memory;
// device_buffer::copy_from of another buffer's span; transfers that do not
// wait, in order with launches that do not wait on the same queue; and the
// named errors (sizes that differ, a span past a buffer's end, a span a
// region holds only part of). Every result is checked element by element.
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp> // optional with the plugin

#include "expect.h"

#include <cstdio>
#include <span>
#include <string>
#include <vector>

[[offload::kernel]] void add(std::span<float> v, float x) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] += x;
}

[[offload::kernel]] void twice(std::span<const int> in, std::span<int> out) {
  std::size_t i = ofld::global_id();
  if (i < out.size())
    out[i] = 2 * in[i];
}

struct rgb {
  float r, g, b;
  bool operator==(const rgb &) const = default;
  explicit operator double() const { return r + 10 * g + 100 * b; }
};

static std::vector<std::string> errors;

int main() {
  bool ok = true;
  const std::size_t n = 1000;
  std::vector<float> h(n), out(n, -1.0f);
  for (std::size_t i = 0; i < n; ++i)
    h[i] = float(i);

  // Host -> device, device -> device at offsets, a launch, device -> host.
  ofld::device_buffer<float> a(n), b(n);
  ofld::copy(a, h);
  ofld::fill(b, 0.5f);
  ofld::copy(std::span<float>(b).subspan(100, 50),
             std::span<const float>(a).subspan(900, 50));
  offload(add, b, 1.0f);
  ofld::copy(out, b);
  std::vector<float> want(n, 1.5f);
  for (std::size_t i = 100; i < 150; ++i)
    want[i] = float(i + 800) + 1.0f;
  ok &= e2e::mismatches("device copies", out, want) == 0;

  // Fills of a sub-span, and of other element sizes.
  ofld::fill(std::span<float>(a).subspan(10, 5), -2.0f);
  a.copy_to(out);
  want = h;
  for (std::size_t i = 10; i < 15; ++i)
    want[i] = -2.0f;
  ok &= e2e::mismatches("fill of a sub-span", out, want) == 0;
  ofld::device_buffer<double> d(300);
  ofld::fill(d, 0.25);
  ofld::fill(std::span<double>(d).last(100), 3.0);
  std::vector<double> dout(300);
  ofld::copy(dout, d);
  std::vector<double> dwant(300, 0.25);
  for (std::size_t i = 200; i < 300; ++i)
    dwant[i] = 3.0;
  ok &= e2e::mismatches("fill of doubles", dout, dwant) == 0;
  ofld::device_buffer<rgb> c(64);
  ofld::fill(c, rgb{1, 2, 3});
  std::vector<rgb> cout(64);
  ofld::copy(cout, c);
  ok &= e2e::mismatches("fill of structs", cout,
                        std::vector<rgb>(64, rgb{1, 2, 3})) == 0;

  // copy_from a span of another buffer (device to device).
  ofld::device_buffer<float> e(n);
  e.copy_from(std::span<const float>(a));
  e.copy_to(out);
  ok &= e2e::mismatches("copy_from a device span", out, want) == 0;

  // A region's data: copies and fills write its device copy, which kernels
  // read; the host copy gets them where the region copies back (its end).
  std::vector<int> v(256, 1), w(256, 0), src(128);
  for (int i = 0; i < 128; ++i)
    src[i] = i;
  {
    ofld::region r{std::span<int>(v), std::span<int>(w)};
    ofld::copy(std::span<int>(v).first(128), src);
    ofld::fill(std::span<int>(v).last(128), 7);
    offload(twice, v, w);
    // Region to device buffer, and back from it.
    ofld::device_buffer<int> f(256);
    ofld::copy(f, w);
    ofld::fill(std::span<int>(w).first(8), -1);
    ofld::copy(std::span<int>(w).last(8), std::span<const int>(f).first(8));
  }
  std::vector<int> vwant(256, 7), wwant(256, 14);
  for (int i = 0; i < 128; ++i)
    vwant[i] = i, wwant[i] = 2 * i;
  for (int i = 0; i < 8; ++i)
    wwant[i] = -1, wwant[248 + i] = 2 * i;
  ok &= e2e::mismatches("region data after copies", v, vwant) == 0;
  ok &= e2e::mismatches("region results", w, wwant) == 0;

  // Plain host memory both ways.
  std::vector<float> h2(n);
  ofld::copy(h2, h);
  ofld::fill(std::span<float>(h2).first(3), 9.0f);
  want = h;
  want[0] = want[1] = want[2] = 9.0f;
  ok &= e2e::mismatches("host copies", h2, want) == 0;

  // Launches and transfers that do not wait, in order on one queue (of
  // device 0, where there is one: naming a device that does not exist is
  // an error).
  ofld::queue q(ofld::device_count() > 0 ? 0 : -1);
  ofld::fill(a, 0.0f, {.nowait = true, .queue = q});
  for (int k = 0; k < 4; ++k) {
    offload(ofld::launch{.grid = {4}, .block = {256}, .nowait = true,
                         .queue = q},
            add, a, 1.0f);
    ofld::copy(std::span<float>(b).subspan(k * 10, 10),
               std::span<const float>(a).first(10),
               {.nowait = true, .queue = q});
  }
  ofld::copy(out, b, {.nowait = true, .queue = q});
  q.wait();
  want.assign(n, 1.5f);
  for (std::size_t i = 100; i < 150; ++i)
    want[i] = float(i + 800) + 1.0f;
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < 10; ++i)
      want[k * 10 + i] = float(k + 1);
  ok &= e2e::mismatches("ordered on a queue", out, want) == 0;

  // Named errors, nothing copied.
  ofld::set_error_handler(
      [](const char *message) { errors.push_back(message); });
  std::vector<float> five(5, 4.0f);
  ofld::copy(five, std::span<const float>(h).first(6));
  // Where kernels run on this CPU, buffers are host memory and regions hold
  // nothing: these two are errors only where the memory is a device's.
  bool on_device = ofld::device_count() > 0;
  std::vector<int> big(512, 3);
  if (on_device) {
    std::span<float> as = a;
    std::vector<float> more(n + 4);
    ofld::copy(std::span<float>(as.data(), n + 4), more);
    ofld::region r{std::span<int>(big).first(256)};
    ofld::fill(std::span<int>(big).subspan(128, 256), 0);
  }
  ofld::set_error_handler(nullptr);
  for (const std::string &m : errors)
    std::printf("error: %s\n", m.c_str());
  ok &= e2e::mismatches("five", five, std::vector<float>(5, 4.0f)) == 0;
  ok &= e2e::mismatches("big", big, std::vector<int>(512, 3)) == 0;
  ok &= errors.size() == (on_device ? 3u : 1u);

  std::printf("copies and fills: %s\n", ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
