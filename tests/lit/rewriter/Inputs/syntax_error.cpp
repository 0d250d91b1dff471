#include <offload/offload.hpp>
#include <span>
[[offload::kernel]] void fill(std::span<float> v) {}
int main() {
  std::vector<float> v(4) // missing include and semicolon
  offload(fill, v);
}
