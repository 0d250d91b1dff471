// Program for errors.test.
#include <cstdio>
#include <cstring>
#include <span>

[[offload::kernel]] void touch(std::span<char> v) {
  if (ofld::global_id() == 0)
    v[0] = 1;
}

int main(int argc, char **argv) {
  static char buf[16];
  const char *mode = argc > 1 ? argv[1] : "";
  if (!std::strcmp(mode, "huge")) {
    // A view far larger than any device; the check fails before any copy.
    std::span<char> huge(buf, std::size_t(1) << 40);
    offload(ofld::launch{.grid = {1}, .block = {1}}, touch, huge);
  } else if (!std::strcmp(mode, "baddevice")) {
    offload(ofld::launch{.device = 7}, touch, std::span<char>(buf));
  } else {
    ofld::set_error_handler([](const char *m) { std::printf("handled: %s\n", m); });
    offload(ofld::launch{.device = 7}, touch, std::span<char>(buf));
    std::printf("continued\n");
  }
  return 0;
}
