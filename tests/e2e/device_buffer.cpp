//===- device_buffer.cpp - end-to-end: device-only data, region updates ---===//
//
// Part of the offload project's tests. An ofld::device_buffer lives on the
// device only: filled with copy_from, passed to kernels as std::span<T> and
// std::span<const T> (whole or a sub-span), read back with copy_to; the
// launches on it move nothing. In a region, update_from and update_to copy
// one resident range in the middle of it. With LIBOMPTARGET_INFO=-1 the
// program marks its phases on stderr ("phase: ...") so that a test can
// count the copies of each.
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp> // optional with the plugin

#include "expect.h"

#include <algorithm>
#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void scale(std::span<float> v, float f) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] *= f;
}

[[offload::kernel]] void add_into(std::span<const float> a,
                                  std::span<float> b) {
  std::size_t i = ofld::global_id();
  if (i < b.size())
    b[i] += a[i];
}

static void phase(const char *what) {
  std::fprintf(stderr, "phase: %s\n", what);
}

int main() {
  bool ok = true;
  const std::size_t n = 1 << 16;
  std::vector<float> host(n), back(n, 0.0f);
  for (std::size_t i = 0; i < n; ++i)
    host[i] = float(i % 100);

  ofld::device_buffer<float> a(n), b(n);
  ok &= a.size() == n;
  phase("fill");
  a.copy_from(host);
  b.copy_from(host);
  phase("launches");
  for (int k = 0; k < 10; ++k)
    offload(scale, a, 2.0f); // a = host * 1024
  offload(add_into, a, b);   // b = host * 1025
  std::span<float> tail = std::span<float>(b).subspan(n / 2);
  offload(scale, tail, 0.5f); // the second half halved
  ofld::wait();
  phase("read");
  b.copy_to(back);
  phase("done");
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i)
    wrong += back[i] != host[i] * (i < n / 2 ? 1025.0f : 512.5f);
  std::printf("device_buffer: %zu of %zu wrong\n", wrong, n);
  ok &= !wrong;

  // Moving a buffer moves the allocation.
  ofld::device_buffer<float> c = std::move(a);
  ok &= c.size() == n && a.size() == 0;
  std::vector<float> first(4, -1.0f);
  c.copy_to(first); // copies the first four elements only
  ok &=
      e2e::mismatches("first", first,
                      std::vector<float>{0.0f, 1024.0f, 2048.0f, 3072.0f}) == 0;

  // A region's update_from and update_to in the middle of it.
  std::vector<float> v(1000, 1.0f);
  {
    ofld::region r{std::span<float>(v)};
    phase("region");
    offload(scale, v, 3.0f);
    phase("update_from");
    r.update_from(v); // the device's values, now
    std::printf("update_from: v[0] = %.1f\n", v[0]);
    ok &= e2e::mismatches("v after update_from", v,
                          std::vector<float>(v.size(), 3.0f)) == 0;
    for (std::size_t i = 0; i < 500; ++i)
      v[i] += 1.0f;
    phase("update_to");
    r.update_to(std::span<float>(v).first(500)); // what the host changed
    offload(scale, v, 2.0f);
    phase("region end");
  }
  std::printf("update_to: v[0] = %.1f, v[999] = %.1f\n", v[0], v[999]);
  // (3 + 1) * 2 where the host changed v and updated the device, 3 * 2 after.
  std::vector<float> v_ref(v.size(), 6.0f);
  std::fill_n(v_ref.begin(), 500, 8.0f);
  ok &= e2e::mismatches("v after update_to", v, v_ref) == 0;

  // More elements than the buffer holds: a named error, nothing copied.
  static int handled = 0;
  ofld::set_error_handler([](const char *message) {
    ++handled;
    std::printf("handled: %s\n", message);
  });
  std::vector<float> too_many(n + 1, -7.0f);
  phase("too many");
  c.copy_from(too_many);
  c.copy_to(too_many);
  ofld::set_error_handler(nullptr);
  ok &= handled == 2 && too_many[0] == -7.0f;
  c.copy_to(first);
  ok &= first[0] == 0.0f && first[1] == 1024.0f;

  std::printf("device_buffer and updates: %s\n", ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
