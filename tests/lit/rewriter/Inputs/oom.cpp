// A launch whose data the device cannot hold (a span of argv[1] GiB, by
// default 1024, over a small buffer: nothing reads past the buffer, since
// the mapping is refused before any copy). Without a handler the program
// exits with the named message; with one (argv[2] = "handler") the launch
// does not run and the program goes on.
#include <offload/offload.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

[[offload::kernel]] void touch(std::span<char> v) {
  if (ofld::global_id() == 0)
    v[0] = 1;
}

int main(int argc, char **argv) {
  const unsigned long long GiB = argc > 1 ? std::atoll(argv[1]) : 1024;
  if (argc > 2 && !std::strcmp(argv[2], "handler"))
    ofld::set_error_handler(
        [](const char *message) { std::printf("handled: %s\n", message); });
  std::vector<char> buf(64, 0);
  std::span<char> huge(buf.data(), GiB << 30);
  offload(ofld::launch{.grid = {1}}, touch, huge);
  std::printf("went on: buf[0] = %d\n", buf[0]);
  offload(touch, std::span<char>(buf));
  std::printf("the next launch ran: buf[0] = %d\n", buf[0]);
  return 0;
}
