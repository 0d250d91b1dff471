//===- deferred_error.cpp - end-to-end: errors of launches that did not wait
//
// Part of the offload project's tests. A launch that does not wait and
// fails is reported at the next point that waits, with its own kernel,
// call site and cause: a mapping the device cannot hold (any device), to the
// error handler or as exit status 1; or a kernel that traps among launches
// queued on a GPU's stream.
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp> // optional with the plugin

#include <cstdio>
#include <cstring>
#include <span>
#include <vector>

[[offload::kernel]] void touch(std::span<char> v) {
  if (ofld::global_id() == 0)
    v[0] = 1;
}

[[offload::kernel]] void boom(std::span<int> v, int when) {
  if (ofld::global_id() == 0 && v[0] == when)
    __builtin_trap();
  if (ofld::global_id() == 0)
    v[0] += 1;
}

/// Traps in the grid's last thread: the failure comes from the last of
/// thousands of blocks.
[[offload::kernel]] void boom_last(std::span<int> v, int fire) {
  const std::size_t i = ofld::global_id();
  if (i >= v.size())
    return;
  if (fire && i == v.size() - 1)
    __builtin_trap();
  v[i] += 1;
}

/// Every thread traps at once: no block gets far before the failure.
[[offload::kernel]] void boom_all(std::span<int> v, int fire) {
  if (fire)
    __builtin_trap();
  const std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] += 1;
}

/// Stores far outside any allocation: a memory fault, found after the
/// kernel's last block has exited.
[[offload::kernel]] void stray(std::span<int> v, long offset) {
  const std::size_t i = ofld::global_id();
  if (i >= v.size())
    return;
  if (offset && i == v.size() - 1)
    v.data()[offset] = 1;
  v[i] += 1;
}

static int handled = 0;

int main(int argc, char **argv) {
  // handler (the default): the error handler receives the message at the
  // wait, and the program goes on; exit: no handler, the wait exits with
  // status 1; trap, trap-last, trap-all, fault: GPUs only (a trap ends a CPU
  // process).
  const char *mode = argc > 1 ? argv[1] : "handler";
  std::vector<char> buf(64);
  if (!std::strcmp(mode, "trap")) {
    std::vector<int> v(1, 0);
    ofld::region r{std::span<int>(v)};
    // The four launches form a launch group on data the region holds: the
    // group holds nothing and its end does not wait; ofld::wait() does.
    std::puts("four launches, the third traps");
    std::fflush(stdout);
    offload(boom, v, 100);
    offload(boom, v, 100);
    offload(boom, v, 2); // traps
    offload(boom, v, 100);
    std::puts("returned before the failure was reported");
    std::fflush(stdout);
    ofld::wait();
    std::puts("not reached");
    return 0;
  }
  if (!std::strcmp(mode, "trap-last")) {
    std::vector<int> v(std::size_t(1) << 22, 0);
    ofld::region r{std::span<int>(v)};
    std::puts("four launches of 16384 blocks, the third traps in its last");
    std::fflush(stdout);
    offload(boom_last, v, 0);
    offload(boom_last, v, 0);
    offload(boom_last, v, 1); // traps
    offload(boom_last, v, 0);
    ofld::wait();
    std::puts("not reached");
    return 0;
  }
  if (!std::strcmp(mode, "trap-all") || !std::strcmp(mode, "fault")) {
    bool trap = !std::strcmp(mode, "trap-all");
    std::vector<int> v(std::size_t(1) << 22, 0);
    ofld::region r{std::span<int>(v)};
    std::printf("four launches of 16384 blocks, the third %s\n",
                trap ? "traps in every thread" : "stores out of bounds");
    std::fflush(stdout);
    if (trap) {
      offload(boom_all, v, 0);
      offload(boom_all, v, 0);
      offload(boom_all, v, 1); // traps
      offload(boom_all, v, 0);
    } else {
      offload(stray, v, 0);
      offload(stray, v, 0);
      offload(stray, v, 1L << 40); // faults
      offload(stray, v, 0);
    }
    ofld::wait();
    std::puts("not reached");
    return 0;
  }
  if (!std::strcmp(mode, "handler"))
    ofld::set_error_handler([](const char *message) {
      ++handled;
      std::printf("handled: %s\n", message);
    });
  std::span<char> huge(buf.data(), std::size_t(1) << 40);
  offload(ofld::launch{.nowait = true}, touch, std::span<char>(buf));
  offload(ofld::launch{.grid = {1}, .nowait = true}, touch, huge); // fails
  std::puts("returned before the failure was reported");
  std::fflush(stdout);
  ofld::wait();
  bool ok = handled == 1 && buf[0] == 1;
  std::printf("after the wait: %d error(s) handled, buf[0] = %d: %s\n", handled,
              buf[0], ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
