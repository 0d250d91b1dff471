//===- kernel_assert.cpp - end-to-end: a failing assert in a kernel stops the
//program ===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//
//
// Assertions that hold let the program go on. Then the program runs itself
// again ("fail") with two elements out of order, so that the assertion fails
// in two threads of different blocks: the child must stop with one message
// that names the kernel's function, the expression and kernel_assert.cpp:line,
// with a non-zero exit status, and must not go on. Built with NDEBUG, the
// child goes on and says nothing (the assertion is compiled out).
//
//===----------------------------------------------------------------------===//

#include <cassert>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <span>
#include <string>
#include <sys/wait.h>
#include <vector>

constexpr int AssertLine = __LINE__ + 6; // the assert below

[[offload::kernel]] void check_sorted(std::span<const int> v) {
  std::size_t i = ofld::global_id();
  if (i + 1 >= v.size())
    return;
  assert(v[i] <= v[i + 1] && "input must be sorted");
}

static std::size_t count(const std::string &s, const std::string &what) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos;
       at = s.find(what, at + 1))
    ++n;
  return n;
}

int main(int argc, char **argv) {
  std::vector<int> v(4096);
  std::iota(v.begin(), v.end(), 0);
  if (argc > 1 && std::strcmp(argv[1], "fail") == 0) {
    v[1000] = -1;
    v[3000] = -5;
    offload(check_sorted, v);
    std::printf("went on after the kernel\n");
    return 0;
  }

  offload(check_sorted, v); // holds
  std::string out;
  FILE *child =
      popen(("'" + std::string(argv[0]) + "' fail 2>&1").c_str(), "r");
  char buf[4096];
  while (child && std::fgets(buf, sizeof buf, child))
    out += buf;
  int status = child ? pclose(child) : -1;
  bool failed = status != 0; // a non-zero exit status or a signal
  std::printf("-- the child's output:\n%s-- exit %s %d\n", out.c_str(),
              WIFEXITED(status) ? "status" : "signal",
              WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));

  bool ok;
#ifdef NDEBUG
  ok = !failed && count(out, "went on") == 1 && count(out, "Assertion") == 0;
#else
  std::string where = "kernel_assert.cpp:" + std::to_string(AssertLine);
  ok = failed && count(out, "went on") == 0 && count(out, "Assertion") == 1 &&
       count(out, "v[i] <= v[i + 1] && \"input must be sorted\"") == 1 &&
       count(out, where) == 1 && count(out, "check_sorted") >= 1;
#endif
  std::printf("%s\n", ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
