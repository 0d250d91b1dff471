//===- kernel_printf.cpp - end-to-end: printf in kernels ===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//
//
// printf from kernels, as CUDA code uses it: one thread prints the common
// conversions (integers of each size, hexadecimal, floating point in fixed,
// exponent and shortest form, characters, strings, width and precision,
// %%), and every thread of a 2x64 grid prints its own line. The program runs
// itself again ("print") and compares what the child wrote with what the
// host's printf makes of the same calls, line for line (the order of the
// threads' lines is the device's, so they are compared sorted). On AMD GPUs
// (and NVIDIA ones with -DOFFLOAD_BUFFERED_PRINTF) printf is buffered in
// device memory and printed when the kernel ends. "flood N Q" has Q
// launches at once of N threads that print a line each, for concurrent
// launches and the buffer's overflow (tests/gpu/run-device-lib.sh).
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#define FORMATS                                                                \
  "conversions: %d %i %u %ld %lld %x %X %o %c %s|%5d|%-5d|%05d|%.3f %e %g "    \
  "%10.4f %.2e %% done\n"
#define ARGUMENTS(v)                                                           \
  v, -v, 4000000000u, 1234567890123L, -9876543210987LL, 0xbeef, 0xbeef, 8,     \
      'Z', "text", v, v, v, 3.14159265, 2.5e-300, 0.1, -2.0 / 3, 6.02214076e23

[[offload::kernel]] void say(int v, std::span<int> done) {
  std::size_t i = ofld::global_id();
  if (i == 0)
    printf(FORMATS, ARGUMENTS(v));
  printf("block %u thread %u of %u\n", ofld::block_id(), ofld::thread_id(),
         ofld::block_dim());
  done[i] = 1;
}

[[offload::kernel]] void flood(int tag, std::span<int> done) {
  std::size_t i = ofld::global_id();
  if (i < done.size()) {
    printf("flood %d line %llu\n", tag, (unsigned long long)i);
    done[i] = 1;
  }
}

[[offload::kernel]] void quiet(std::span<int> done) {
  std::size_t i = ofld::global_id();
  if (i < done.size())
    done[i] += 1;
}

static std::vector<std::string> lines(const std::string &s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);)
    out.push_back(l);
  return out;
}

int main(int argc, char **argv) {
  std::vector<int> done(128);
  // The time of a launch that waits and prints nothing: with device printf
  // buffered, the runtime reads the buffer's counters after each.
  if (argc > 2 && std::strcmp(argv[1], "launches") == 0) {
    int n = std::atoi(argv[2]);
    std::vector<int> v(256);
    offload(quiet, v);
    auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < n; ++k)
      offload(quiet, v);
    std::chrono::duration<double, std::micro> t =
        std::chrono::steady_clock::now() - start;
    std::printf("%d launches: %.2f us each (v[0] = %d)\n", n, t.count() / n,
                v[0]);
    return 0;
  }
  // N threads print a line each, in Q launches on queues of their own that
  // run at once (what each printed is printed when the last one ends).
  if (argc > 3 && std::strcmp(argv[1], "flood") == 0) {
    std::size_t n = std::strtoul(argv[2], nullptr, 10);
    int queues = std::atoi(argv[3]);
    std::vector<std::vector<int>> all(queues, std::vector<int>(n));
    for (int q = 0; q < queues; ++q)
      offload(ofld::launch{.nowait = true, .queue = ofld::queue(-1)}, flood, q,
              all[q]);
    ofld::wait();
    int done = 0;
    for (const std::vector<int> &v : all)
      done += int(std::count(v.begin(), v.end(), 1));
    std::printf("threads done: %d\n", done);
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "print") == 0) {
    offload(ofld::launch{.grid = {2}, .block = {64}}, say, 42, done);
    std::printf("threads done: %d\n",
                int(std::count(done.begin(), done.end(), 1)));
    return 0;
  }

  // What the device must have written.
  char buf[512];
  std::snprintf(buf, sizeof buf, FORMATS, ARGUMENTS(42));
  std::vector<std::string> want{buf};
  for (unsigned b = 0; b < 2; ++b)
    for (unsigned t = 0; t < 64; ++t) {
      std::snprintf(buf, sizeof buf, "block %u thread %u of %u", b, t, 64u);
      want.push_back(buf);
    }
  want.push_back("threads done: 128");
  for (std::string &l : want)
    if (!l.empty() && l.back() == '\n')
      l.pop_back();

  std::string out;
  FILE *child =
      popen(("'" + std::string(argv[0]) + "' print 2>&1").c_str(), "r");
  while (child && std::fgets(buf, sizeof buf, child))
    out += buf;
  int status = child ? pclose(child) : -1;
  // The child's output, and what it prints but libomptarget's log
  // (LIBOMPTARGET_INFO, which the child inherits) for the comparison.
  std::printf("-- the child's output:\n%s--\n", out.c_str());
  std::vector<std::string> got;
  for (std::string &l : lines(out))
    if (l.rfind("omptarget", 0) != 0 && l.rfind("\"PluginInterface\"", 0) != 0)
      got.push_back(std::move(l));
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  bool ok = status == 0 && got == want;
  if (!ok)
    for (const std::string &l : want)
      if (!std::binary_search(got.begin(), got.end(), l))
        std::printf("missing: %s\n", l.c_str());
  std::printf("%zu lines: %s\n", got.size(), ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
