#include <offload/offload.hpp>
#include <span>
[[offload::kernel]] void fill(std::span<float> v) {}
int main() {
  std::no_such_container<float> v(4) // unknown type and missing semicolon
  offload(fill, v);
}
