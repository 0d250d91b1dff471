//===- LaunchShapeTest.cpp - unit tests of the default launch shape -------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// offload/launch.hpp defines the default launch shape once for the plugin,
// the runtime, the CPU fallback and the OpenMP bridge: which parameter sets
// it, the grid and block it gives, when nothing runs and which limit a
// launch exceeds. The plugin's descriptor applies the same rule to its
// parameter layouts.
//
//===----------------------------------------------------------------------===//

#include "offload/Core/KernelDescriptor.h"

#include <catch2/catch.hpp>

#include <cstdint>

using namespace offload;
using ofld::detail::shape_role;

namespace {

ParamLayout param(PayloadKind K, MapKind M, bool ArrayLike) {
  ParamLayout P;
  P.Kind = K;
  P.Map = M;
  P.IsArrayLike = ArrayLike;
  return P;
}

// Evaluated at compile time too: the header's rule is constexpr.
constexpr shape_role PolyRoles[] = {shape_role::read, shape_role::read,
                                    shape_role::written};
static_assert(ofld::detail::shape_param(PolyRoles, 3) == 2);

} // namespace

TEST_CASE("the shape parameter: first written span or array, else first",
          "[shape]") {
  using ofld::detail::shape_param;
  const shape_role None[] = {shape_role::none, shape_role::none};
  CHECK(shape_param(None, 2) == -1);
  const shape_role ReadOnly[] = {shape_role::none, shape_role::read,
                                 shape_role::read};
  CHECK(shape_param(ReadOnly, 3) == 1);
  const shape_role Written[] = {shape_role::read, shape_role::none,
                                shape_role::written, shape_role::written};
  CHECK(shape_param(Written, 4) == 2);

  // poly(std::span<const float>, std::span<const float>, std::span<float>)
  KernelDescriptor Poly;
  Poly.Params = {param(PayloadKind::Span, MapKind::To, true),
                 param(PayloadKind::Span, MapKind::To, true),
                 param(PayloadKind::Span, MapKind::ToFrom, true)};
  CHECK(Poly.shapeParam() == 2u);
  // An [[offload::out]] span and a T(&)[N] count as written; a scalar T&
  // (to and from, but no array) does not.
  KernelDescriptor Mixed;
  Mixed.Params = {param(PayloadKind::Object, MapKind::ToFrom, false),
                  param(PayloadKind::Span, MapKind::To, true),
                  param(PayloadKind::Span, MapKind::From, true)};
  CHECK(Mixed.shapeParam() == 2u);
  CHECK(shapeRole(Mixed.Params[0]) == shape_role::none);
  CHECK(shapeRole(Mixed.Params[1]) == shape_role::read);
}

TEST_CASE("default dimensions, empty grids and limits", "[shape]") {
  using namespace ofld::detail;
  std::uint64_t D[6];
  SECTION("unset: one thread per element in blocks of 256") {
    default_dims(nullptr, 1000, D);
    CHECK(D[0] == 4);
    CHECK(D[3] == 256);
    CHECK((D[1] == 1 && D[2] == 1 && D[4] == 1 && D[5] == 1));
    CHECK_FALSE(is_empty(D));
  }
  SECTION("no shape parameter: one block of one thread") {
    default_dims(nullptr, -1, D);
    CHECK((D[0] == 1 && D[3] == 1));
  }
  SECTION("an empty span launches nothing") {
    default_dims(nullptr, 0, D);
    CHECK(is_empty(D));
  }
  SECTION("a set block with an unset grid: blocks of block.x threads") {
    ofld::launch L{.block = {64, 2}};
    default_dims(&L, 1000, D);
    CHECK((D[0] == 16 && D[3] == 64 && D[4] == 2));
  }
  SECTION("a zero component of a set grid launches nothing") {
    std::size_t Zero = 0;
    ofld::launch L{.grid = {Zero / 256}};
    default_dims(&L, 1000, D);
    CHECK(D[0] == 0);
    CHECK(is_empty(D));
    ofld::launch M{.grid = {8, 1, 0}};
    default_dims(&M, 1000, D);
    CHECK(is_empty(D));
  }
  SECTION("limits: which one, grid before block before threads") {
    const std::uint64_t G[3] = {100, 10, 10}, B[3] = {64, 64, 4};
    std::uint64_t Ok[6] = {100, 10, 10, 64, 4, 4};
    CHECK(exceeded_limit(Ok, G, B, 1024) == -1);
    std::uint64_t GridY[6] = {1, 11, 1, 1, 1, 1};
    CHECK(exceeded_limit(GridY, G, B, 1024) == 1);
    std::uint64_t BlockZ[6] = {1, 1, 1, 1, 1, 5};
    CHECK(exceeded_limit(BlockZ, G, B, 1024) == 5);
    std::uint64_t Threads[6] = {1, 1, 1, 64, 64, 1};
    CHECK(exceeded_limit(Threads, G, B, 1024) == 6);
    // A size_t beyond 32 bits is kept, to be reported, not wrapped.
    ofld::launch L{.grid = {std::size_t(1) << 32}};
    default_dims(&L, -1, D);
    CHECK(D[0] == std::uint64_t(1) << 32);
    CHECK(exceeded_limit(D, portable_max_grid, portable_max_block,
                         portable_max_threads) == 0);
  }
}
