// A launch on a device that does not exist, and one where offloading is
// mandatory but no device is there: the offload runtime's messages, naming
// the kernel and the call, then exit status 1 - or, with a handler, the
// handler gets them and the launch does not run.
#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <vector>

[[offload::kernel]] void ones(std::span<int> v) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] = 1;
}

static void report(const char *Message) { std::printf("handler: %s\n", Message); }

int main(int argc, char **) {
  std::vector<int> v(10);
  if (argc > 1)
    ofld::set_error_handler(report);
  offload(ofld::launch{.device = 7}, ones, v);
  std::printf("v[0] = %d\n", v[0]);
  offload(ones, v);
  std::printf("v[0] = %d\n", v[0]);
}
