//===- bitfields.cpp - runtime faults: structs with bit-fields -------------===//
//
// Part of the offload project's tests. Bit-field structs are trivially
// copyable and keep the host layout on the device: accepted by value (a
// literal or a private copy) and by reference (copied both ways).
//
//===----------------------------------------------------------------------===//

#include <cstdio>

struct Flags {
  unsigned ready : 1;
  unsigned mode : 3;
  int level : 12;
  unsigned long long wide : 40;
};

[[offload::kernel]] void read(Flags f, int &level, unsigned long long &wide) {
  level = f.ready ? f.level * int(f.mode) : 0;
  wide = f.wide + 1;
}
// Same arity as read(): see the report on mixed-arity launches.
[[offload::kernel]] void write(Flags &f, int &unused, unsigned long long &none) {
  f.mode = 5;
  f.level = -7;
  f.wide = 0xffffffffffull;
}

int main() {
  Flags f{1, 3, -100, 0x123456789ull};
  int level = 0, unused = 0;
  unsigned long long wide = 0;
  offload(read, f, level, wide);
  offload(write, f, unused, wide);
  bool ok = level == -300 && wide == 0x12345678aull && f.ready == 1 &&
            f.mode == 5 && f.level == -7 && f.wide == 0xffffffffffull;
  std::printf("level %d wide %llx mode %u: %s\n", level, wide, unsigned(f.mode),
              ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
