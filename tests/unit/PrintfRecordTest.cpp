//===- PrintfRecordTest.cpp - the buffered device printf's records --------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// offload/detail/printf_record.hpp on the host: a record encoded from a call's
// arguments, as a kernel on an AMD GPU does it, decodes to what the host's
// printf makes of the same call. Arguments come as a va_list (AMD GPUs) and
// packed at their natural alignment (NVIDIA GPUs, clang's vprintf lowering).
//
//===----------------------------------------------------------------------===//

#define OFFLOAD_PRINTF_DECODER
#include "offload/detail/printf_record.hpp"

#include <catch2/catch.hpp>

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace r = ofld::detail::printf_record;

namespace {

/// Encodes like the device (measure, then write into an 8-aligned buffer),
/// decodes like the runtime.
template <class Args>
std::string roundTrip(const char *Fmt, const Args &A, int *NArgs = nullptr) {
  Args Measure = A;
  int N = 0;
  r::u64 Size = r::encode(nullptr, Fmt, Measure, N);
  REQUIRE(Size % 8 == 0);
  std::vector<r::u64> Words(Size / 8 + 1, ~r::u64(0));
  auto *Buf = reinterpret_cast<r::u8 *>(Words.data());
  Args Write = A;
  int N2 = 0;
  REQUIRE(r::encode(Buf, Fmt, Write, N2) == Size);
  REQUIRE(N2 == N);
  if (NArgs)
    *NArgs = N;
  std::string Out;
  REQUIRE(r::decode(Buf, Size, Out) == Size);
  // A record cut short is no record.
  std::string Ignored;
  CHECK(r::decode(Buf, Size - 8, Ignored) == 0);
  return Out;
}

[[gnu::format(printf, 1, 2)]] std::string viaVaList(const char *Fmt, ...) {
  va_list Ap;
  va_start(Ap, Fmt);
  r::va_args A;
  va_copy(A.ap, Ap);
  std::string Got = roundTrip(Fmt, A);
  va_end(A.ap);
  va_end(Ap);
  return Got;
}

[[gnu::format(printf, 1, 2)]] std::string host(const char *Fmt, ...) {
  va_list Ap;
  va_start(Ap, Fmt);
  char Buf[4096];
  int N = std::vsnprintf(Buf, sizeof Buf, Fmt, Ap);
  va_end(Ap);
  REQUIRE(N >= 0);
  REQUIRE(std::size_t(N) < sizeof Buf);
  return Buf;
}

} // namespace

// Each format twice: the record's text, and the host's.
#define SAME(...) CHECK(viaVaList(__VA_ARGS__) == host(__VA_ARGS__))

TEST_CASE("integer conversions decode as the host prints them", "[printf]") {
  SAME("%d %i %u %x %X %o", -42, 17, 4000000000u, 0xbeefu, 0xbeefu, 8u);
  SAME("%ld %lld %lu %llx", -1234567890123L, -9876543210987LL,
       18446744073709551615UL, 0x123456789abcdefULL);
  SAME("%zu %zd %td %jd", sizeof(long double), std::ptrdiff_t(-5),
       std::ptrdiff_t(-6), std::intmax_t(-7));
  SAME("%hd %hu %hhd %hhx", 70000, 70000, 300, 0x1ff);
  SAME("[%5d|%-5d|%05d|%+d|% d|%#x|%#o|%.3d|%8.3d]", 42, 42, 42, 42, 42, 255u,
       8u, 7, -7);
  SAME("%d %d", INT32_MIN, INT32_MAX);
  SAME("%lld %llu", (long long)INT64_MIN, (unsigned long long)UINT64_MAX);
}

TEST_CASE("floating point conversions decode as the host prints them",
          "[printf]") {
  SAME("%f %e %g %E %G %a %A", 3.14159265, 2.5e-300, 0.1, -2.0 / 3, 1e100, 1.0,
       -0.5);
  SAME("[%10.4f|%-12.3e|%.0f|%#.0f|%+.2g|%08.2f]", 3.14159265, 6.02214076e23,
       2.5, 2.5, 1234.5, -3.5);
  SAME("%f %f %f %e", 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0, -0.0);
  SAME("%.17g %.17g", 0.1f * 3.0, 5e-324);
  float F = 1.25f; // promoted to double, as in any variadic call
  SAME("%f %g", F, F);
}

TEST_CASE("characters, strings, pointers and %% decode as the host prints "
          "them",
          "[printf]") {
  SAME("%c%c%c %5c|%-3c|", 'a', 'b', 'c', 'Z', 'q');
  SAME("%s|%10s|%-10s|%.3s|%.0s|%s", "text", "right", "left", "abcdef", "gone",
       "");
  SAME("100%% %s%%", "done");
  const char *Null = nullptr;
  SAME("[%s] [%10s]", Null, Null);
  int X = 0;
  SAME("%p %p", static_cast<void *>(&X), static_cast<void *>(nullptr));
  SAME("no conversions at all\n");
  SAME("%s", "");
  std::string Long(3000, 'x');
  SAME("%s!", Long.c_str());
}

TEST_CASE("star widths and precisions are stored and applied", "[printf]") {
  SAME("[%*d|%-*d|%*d]", 6, 42, 6, 42, -6, 42);
  SAME("[%.*f|%.*f|%*.*f]", 2, 3.14159, -1, 3.14159, 10, 3, 2.71828);
  SAME("[%.*s|%*.*s]", 3, "abcdef", 8, 2, "abcdef");
  SAME("[%.*s]", -1, "whole");
}

TEST_CASE("a string with a precision is read no further", "[printf]") {
  // Not NUL-terminated: C reads at most the precision's bytes.
  char Unterminated[4] = {'a', 'b', 'c', 'd'};
  SAME("%.4s|%.2s", Unterminated, Unterminated);
}

TEST_CASE("%n stores nothing; the arguments read are counted", "[printf]") {
  int Count = -1;
  CHECK(viaVaList("ab%ncd", &Count) == "abcd");
  CHECK(Count == -1);
}

TEST_CASE("arguments packed as clang passes them to vprintf (NVIDIA)",
          "[printf]") {
  // A struct has the layout clang gives the packed arguments: each at its
  // natural alignment, one after another.
  struct {
    int A;
    long long B;
    double C;
    const char *S;
    int D;
    void *P;
    char Pad[4];
  } Packed{-7, 1234567890123LL, 2.5, "str", 'x', nullptr, {}};
  r::packed_args Args{reinterpret_cast<const r::u8 *>(&Packed)};
  int N = 0;
  CHECK(roundTrip("%d %lld %.2f %s %c %p", Args, &N) ==
        host("%d %lld %.2f %s %c %p", -7, 1234567890123LL, 2.5, "str", 'x',
             static_cast<void *>(nullptr)));
  CHECK(N == 6);
}

TEST_CASE("records are 8-byte multiples and end at the end marker",
          "[printf]") {
  r::va_args Unused{};
  int N = 0;
  r::va_args Copy = Unused;
  r::u64 Size = r::encode(nullptr, "hello\n", Copy, N);
  CHECK(N == 0);
  // Header, then the format's 7 bytes padded to 8.
  CHECK(Size == r::header_bytes + 8);
  std::vector<r::u64> Words(Size / 8 + 2, 0);
  auto *Buf = reinterpret_cast<r::u8 *>(Words.data());
  Copy = Unused;
  r::encode(Buf, "hello\n", Copy, N);
  std::string Out;
  CHECK(r::decode(Buf, Size + 16, Out) == Size);
  // What the device leaves where a record did not fit: a size of 0.
  CHECK(r::decode(Buf + Size, 16, Out) == 0);
  CHECK(Out == "hello\n");
}
