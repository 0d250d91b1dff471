// A kernel defined in a header, as ports keep them: the rewrite of main.cpp
// changes this file too (declare target), which a rewrite to stdout does
// not write.
#pragma once
#include <offload/offload.hpp>

#include <span>

[[offload::kernel]] inline void twice(std::span<float> v) {
  if (auto i = ofld::global_id(); i < v.size())
    v[i] *= 2.0f;
}
