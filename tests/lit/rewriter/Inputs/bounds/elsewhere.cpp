// The kernel that main.cpp launches without seeing its definition.
#include <offload/offload.hpp>

#include <span>

[[offload::kernel]] void elsewhere(std::span<int> v) {
  std::size_t i = ofld::global_id();
  if (i < v.size())
    v[i] = 2;
}
