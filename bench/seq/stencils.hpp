//===- bench/seq/stencils.hpp - the stencils' offload() kernels -----------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// Jacobi-2D and FDTD-2D (kernels.hpp's points) as offload() kernels, one
// thread per point of a 2-D grid: shared by seq/ours.cpp (the loops in a
// region) and loops/ours.cpp (the loops with no region, issue 30). Include
// it in one translation unit.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_SEQ_STENCILS_HPP
#define OFFLOAD_BENCH_SEQ_STENCILS_HPP

#include "kernels.hpp"

#include <span>

[[offload::kernel]] void jacobi(std::span<const float> a, std::span<float> b,
                                int n) {
  seq::jacobi_point(a.data(), b.data(), n, int(ofld::global_id(1)),
                    int(ofld::global_id(0)));
}

[[offload::kernel]] void ey_step(std::span<float> ey, std::span<const float> hz,
                                 float fict, int nx, int ny) {
  seq::fdtd_ey(ey.data(), hz.data(), fict, nx, ny, int(ofld::global_id(1)),
               int(ofld::global_id(0)));
}

[[offload::kernel]] void ex_step(std::span<float> ex, std::span<const float> hz,
                                 int nx, int ny) {
  seq::fdtd_ex(ex.data(), hz.data(), nx, ny, int(ofld::global_id(1)),
               int(ofld::global_id(0)));
}

[[offload::kernel]] void hz_step(std::span<float> hz, std::span<const float> ex,
                                 std::span<const float> ey, int nx, int ny) {
  seq::fdtd_hz(hz.data(), ex.data(), ey.data(), nx, ny, int(ofld::global_id(1)),
               int(ofld::global_id(0)));
}

#endif // OFFLOAD_BENCH_SEQ_STENCILS_HPP
