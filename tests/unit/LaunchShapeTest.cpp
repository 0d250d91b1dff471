//===- LaunchShapeTest.cpp - unit tests of the default launch shape -------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// offload/launch.hpp defines the default launch shape once for the plugin,
// the runtime, the CPU fallback and the OpenMP bridge: from what the
// kernel's bounds check admits per dimension (a count, extent_unindexed or
// extent_unknown) to the grid and block, when nothing runs, when a launch
// may not run at all (lacks_bound), and which limit a launch exceeds. The
// rule is constexpr: the examples of launch.hpp's comments are evaluated by
// the compiler, and checked when the tests run (so that a planted bug,
// tests/mutations, still builds and is caught by this test).
//
//===----------------------------------------------------------------------===//

#include "offload/launch.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

using ofld::detail::extent_unindexed;
using ofld::detail::extent_unknown;

namespace {

using Dims = std::array<std::uint64_t, 6>;
constexpr long long None = extent_unindexed;

/// Grid x, y, z and block x, y, z of `L` (null: no launch argument) for a
/// kernel whose bounds check admits `X` x `Y` x `Z` indices.
constexpr Dims shapeWith(const ofld::launch *L, long long X, long long Y = None,
                         long long Z = None) {
  const long long Extent[3] = {X, Y, Z};
  Dims D{};
  ofld::detail::default_dims(L, Extent, D.data());
  return D;
}

constexpr Dims shape(long long X, long long Y = None, long long Z = None) {
  return shapeWith(nullptr, X, Y, Z);
}

constexpr bool lacksBound(const ofld::launch *L, long long X,
                          long long Y = None, long long Z = None) {
  const long long Extent[3] = {X, Y, Z};
  return ofld::detail::lacks_bound(L, Extent);
}

constexpr bool isEmpty(const Dims &D) {
  return ofld::detail::is_empty(D.data());
}

} // namespace

TEST_CASE("the rule at compile time: launch.hpp's examples", "[shape]") {
  constexpr Dims OneD = shape(1000), TwoD = shape(40, 30),
                 ThreeD = shape(100, 10, 5), NoIndex = shape(None);
  CHECK(OneD == Dims{4, 1, 1, 256, 1, 1});
  CHECK(TwoD == Dims{2, 4, 1, 32, 8, 1});
  CHECK(ThreeD == Dims{4, 3, 3, 32, 4, 2});
  CHECK(NoIndex == Dims{1, 1, 1, 1, 1, 1});
  constexpr bool Empty = isEmpty(shape(0));
  constexpr bool Bounded = lacksBound(nullptr, 1000);
  constexpr bool Unbounded = lacksBound(nullptr, extent_unknown);
  CHECK(Empty);
  CHECK_FALSE(Bounded);
  CHECK(Unbounded);
}

TEST_CASE("default dimensions: one thread per admitted index",
          "[shape][default]") {
  SECTION("1-D: blocks of 256, enough of them to cover the bound") {
    CHECK(shape(1000) == Dims{4, 1, 1, 256, 1, 1});
    CHECK(shape(256) == Dims{1, 1, 1, 256, 1, 1});
    CHECK(shape(257) == Dims{2, 1, 1, 256, 1, 1});
    CHECK_FALSE(isEmpty(shape(1000)));
  }
  SECTION("a bound below the block: the block shrinks to it") {
    // One thread per admitted index: `if (global_id() == 0)` runs one.
    CHECK(shape(1) == Dims{1, 1, 1, 1, 1, 1});
    CHECK(shape(100) == Dims{1, 1, 1, 100, 1, 1});
    CHECK(shape(5, 30) == Dims{1, 4, 1, 5, 8, 1});
  }
  SECTION("2-D: blocks of 32x8") {
    CHECK(shape(40, 30) == Dims{2, 4, 1, 32, 8, 1});
    CHECK(shape(32, 8) == Dims{1, 1, 1, 32, 8, 1});
  }
  SECTION("3-D: blocks of 32x4x2") {
    CHECK(shape(100, 10, 5) == Dims{4, 3, 3, 32, 4, 2});
  }
  SECTION("the split goes to the indexed dimensions, x first") {
    // Only y: the whole block along y, no two threads share an index.
    CHECK(shape(None, 1000) == Dims{1, 4, 1, 1, 256, 1});
    // x and z: the 2-D split, x then z.
    CHECK(shape(100, None, 10) == Dims{4, 1, 2, 32, 1, 8});
    // y and z.
    CHECK(shape(None, 40, 30) == Dims{1, 2, 4, 1, 32, 8});
  }
  SECTION("only z: the block's z is capped at 64, the device's limit") {
    Dims D = shape(None, None, 1000);
    CHECK(D == Dims{1, 1, 16, 1, 1, 64});
    CHECK(D[5] <= ofld::detail::portable_max_block[2]);
  }
  SECTION("a kernel that reads no thread index runs one thread") {
    CHECK(shape(None, None, None) == Dims{1, 1, 1, 1, 1, 1});
    CHECK_FALSE(isEmpty(shape(None)));
  }
}

TEST_CASE("default dimensions: empty bounds launch nothing",
          "[shape][default]") {
  SECTION("a zero bound") {
    CHECK(shape(0)[0] == 0);
    CHECK(isEmpty(shape(0)));
    CHECK(isEmpty(shape(40, 0)));
    CHECK(isEmpty(shape(None, None, 0)));
  }
  SECTION("a negative bound is 0, not a wrapped huge count") {
    CHECK(shape(-5)[0] == 0);
    CHECK(isEmpty(shape(-5)));
    CHECK(isEmpty(shape(40, -3)));
    CHECK(shape(40, -3)[0] == 2);
  }
  SECTION("the other dimensions keep their count") {
    Dims D = shape(0, 30);
    CHECK(D[1] == 4);
    CHECK(D[4] == 8);
  }
}

TEST_CASE("default dimensions: a launch that sets grid or block",
          "[shape][launch]") {
  SECTION("a set block with an unset grid: enough blocks of it") {
    ofld::launch L{.block = {64, 2}};
    CHECK(shapeWith(&L, 1000) == Dims{16, 1, 1, 64, 2, 1});
    CHECK(shapeWith(&L, 1000, 7) == Dims{16, 4, 1, 64, 2, 1});
    // An unindexed dimension keeps one block, whatever the block is.
    CHECK(shapeWith(&L, None, 7) == Dims{1, 4, 1, 64, 2, 1});
  }
  SECTION("a set grid with an unset block: 256 threads along x") {
    // The grid is the caller's, and means the same whatever the kernel
    // reads: the block does not follow the bound, as it cannot without the
    // plugin.
    ofld::launch L{.grid = {8}};
    CHECK(shapeWith(&L, 1000) == Dims{8, 1, 1, 256, 1, 1});
    CHECK(shapeWith(&L, 40, 30) == Dims{8, 1, 1, 256, 1, 1});
    CHECK(shapeWith(&L, extent_unknown) == Dims{8, 1, 1, 256, 1, 1});
    CHECK(shapeWith(&L, None) == Dims{8, 1, 1, 256, 1, 1});
  }
  SECTION("grid and block both set: taken as they are") {
    ofld::launch L{.grid = {3, 2, 1}, .block = {7, 5, 1}};
    CHECK(shapeWith(&L, 1000) == Dims{3, 2, 1, 7, 5, 1});
  }
  SECTION("a launch that sets neither is the default shape") {
    ofld::launch L;
    CHECK(shapeWith(&L, 40, 30) == shape(40, 30));
    ofld::launch Device{.device = 1, .nowait = true};
    CHECK(shapeWith(&Device, 1000) == shape(1000));
  }
}

TEST_CASE("default dimensions: zero components launch nothing",
          "[shape][launch]") {
  SECTION("a zero component of a set grid") {
    std::size_t Zero = 0;
    ofld::launch L{.grid = {Zero / 256}};
    Dims D = shapeWith(&L, 1000);
    CHECK(D[0] == 0);
    CHECK(isEmpty(D));
    ofld::launch M{.grid = {8, 1, 0}};
    CHECK(isEmpty(shapeWith(&M, 1000)));
  }
  SECTION("a zero component of a set block, with an unset grid") {
    // The grid is computed without dividing by the zero.
    ofld::launch L{.block = {0, 4, 1}};
    Dims D = shapeWith(&L, 1000, 30);
    CHECK(D[3] == 0);
    CHECK(D[1] == 8);
    CHECK(isEmpty(D));
  }
}

TEST_CASE("lacks_bound: an unset grid and a bound nobody could read",
          "[shape][bound]") {
  ofld::launch Grid{.grid = {4}};
  ofld::launch Block{.block = {128}};
  ofld::launch Unset;
  // Unknown in any dimension, with no grid: the launch must not run.
  CHECK(lacksBound(nullptr, extent_unknown));
  CHECK(lacksBound(nullptr, 1000, extent_unknown));
  CHECK(lacksBound(nullptr, 1000, None, extent_unknown));
  CHECK(lacksBound(&Unset, extent_unknown));
  // A block alone does not say how many threads.
  CHECK(lacksBound(&Block, extent_unknown));
  // A grid does.
  CHECK_FALSE(lacksBound(&Grid, extent_unknown));
  CHECK_FALSE(lacksBound(&Grid, 10, extent_unknown, extent_unknown));
  // Bounded, empty or unindexed dimensions never lack a bound.
  CHECK_FALSE(lacksBound(nullptr, 1000, 20, 3));
  CHECK_FALSE(lacksBound(nullptr, 0));
  CHECK_FALSE(lacksBound(nullptr, -7));
  CHECK_FALSE(lacksBound(nullptr, None, None, None));
  CHECK_FALSE(lacksBound(&Block, 1000));
}

TEST_CASE("unbounded_cause names the dimension without a bound",
          "[shape][bound]") {
  char Buf[512];
  const long long X[3] = {extent_unknown, None, None};
  __ofld::unbounded_cause(Buf, sizeof Buf, X);
  std::string S = Buf;
  CHECK_THAT(S, Catch::Contains("ofld::global_id(0)"));
  CHECK_THAT(S, Catch::Contains("if (i < n)"));
  const long long Y[3] = {1000, extent_unknown, None};
  __ofld::unbounded_cause(Buf, sizeof Buf, Y);
  CHECK_THAT(std::string(Buf), Catch::Contains("ofld::global_id(1)"));
  const long long Z[3] = {1000, 30, extent_unknown};
  __ofld::unbounded_cause(Buf, sizeof Buf, Z);
  CHECK_THAT(std::string(Buf), Catch::Contains("ofld::global_id(2)"));
  // A short buffer is cut, not overrun.
  char Short[8];
  std::memset(Short, 'x', sizeof Short);
  __ofld::unbounded_cause(Short, sizeof Short, X);
  CHECK(std::strlen(Short) == sizeof Short - 1);
}

TEST_CASE("the bound operators that are not C++'s own", "[shape][bound]") {
  using namespace ofld::detail;
  // offload-rewrite spells every bound with these: a division by zero must
  // be 0 (no launch), not a trap in the host program.
  STATIC_REQUIRE(bound_div(7, 2) == 3);
  STATIC_REQUIRE(bound_div(7, 0) == 0);
  STATIC_REQUIRE(bound_div(-7, 2) == -3);
  STATIC_REQUIRE(bound_min(3, -4) == -4);
  STATIC_REQUIRE(bound_max(3, -4) == 3);
  STATIC_REQUIRE(bound_min(5, 5) == 5);
  STATIC_REQUIRE(is_indexed(0));
  STATIC_REQUIRE(is_indexed(extent_unknown));
  STATIC_REQUIRE_FALSE(is_indexed(extent_unindexed));
}

TEST_CASE("limits: which one, grid before block before threads",
          "[shape][limits]") {
  using namespace ofld::detail;
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
  Dims D = shapeWith(&L, None);
  CHECK(D[0] == std::uint64_t(1) << 32);
  CHECK(exceeded_limit(D.data(), portable_max_grid, portable_max_block,
                       portable_max_threads) == 0);
  // The default shape of a bound past the grid limit is reported too.
  Dims Huge = shape(1LL << 50);
  CHECK(exceeded_limit(Huge.data(), portable_max_grid, portable_max_block,
                       portable_max_threads) == 0);
  // Every default block is within the portable limits.
  for (Dims Default : {shape(1), shape(1, 1), shape(1, 1, 1), shape(None, 1),
                       shape(None, None, 1), shape(1, None, 1)})
    CHECK(exceeded_limit(Default.data(), portable_max_grid, portable_max_block,
                         portable_max_threads) == -1);
}

TEST_CASE("limit_cause words the exceeded limit", "[shape][limits]") {
  using namespace ofld::detail;
  char Buf[256];
  std::uint64_t Ok[6] = {1, 1, 1, 256, 1, 1};
  CHECK_FALSE(__ofld::limit_cause(Buf, sizeof Buf, Ok, portable_max_grid,
                                  portable_max_block, portable_max_threads));
  std::uint64_t BlockZ[6] = {1, 1, 1, 1, 1, 65};
  REQUIRE(__ofld::limit_cause(Buf, sizeof Buf, BlockZ, portable_max_grid,
                              portable_max_block, portable_max_threads));
  CHECK(std::string(Buf) == "launch block.z is 65, more than the limit of 64");
  std::uint64_t Threads[6] = {1, 1, 1, 64, 32, 1};
  REQUIRE(__ofld::limit_cause(Buf, sizeof Buf, Threads, portable_max_grid,
                              portable_max_block, portable_max_threads));
  CHECK(std::string(Buf) == "launch block of 2048 threads (64x32x1) is more "
                            "than the limit of 1024 threads per block");
}

TEST_CASE("shared_cause: dynamic shared memory up to the limit, inclusive",
          "[shape][limits]") {
  using namespace ofld::detail;
  char Buf[256];
  CHECK(portable_max_shared_bytes == 232448); // an sm_90's opt-in maximum
  CHECK_FALSE(__ofld::shared_cause(Buf, sizeof Buf, 0, 0));
  CHECK_FALSE(__ofld::shared_cause(Buf, sizeof Buf, portable_max_shared_bytes,
                                   portable_max_shared_bytes));
  REQUIRE(__ofld::shared_cause(Buf, sizeof Buf, portable_max_shared_bytes + 1,
                               portable_max_shared_bytes));
  CHECK(std::string(Buf) ==
        "launch asks for 232449 bytes of dynamic shared memory "
        "(.shared_bytes), more than the limit of 232448");
  ofld::launch L{.grid = {1}, .shared_bytes = 4096};
  CHECK(shared_bytes_of(&L) == 4096);
  CHECK(shared_bytes_of(nullptr) == 0);
}
