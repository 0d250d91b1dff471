//===- offload/detail/printf_record.hpp - device printf records -*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// printf on GPUs that have no device output of their own here (AMD: no
// hostcall service in libomptarget 22, no GPU C library in Debian's LLVM),
// done the way CUDA's vprintf does it: the device appends a record to a
// buffer in device memory, the host prints it when the kernel has finished.
// This file is both ends, so that one walk of the format decides what the
// device stores and what the host reads back:
//
//  * encode() (device): walks the format at run time and stores, for each
//    conversion, its argument by the conversion's type (`*` widths and
//    precisions too), strings by value (the host cannot read device memory).
//  * decode() (host, OFFLOAD_PRINTF_DECODER): walks the same format and
//    prints each conversion with the host's snprintf and the stored value.
//
// A record: u32 size (bytes, a multiple of 8, header included), u32 length of
// the format (its NUL included); the format's bytes, padded to 8; then one
// 8-byte slot per argument, in the order the format consumes them: integers
// widened to 64 bits, doubles, pointers; a string is its length (or
// `null_string`) followed by its bytes, NUL-terminated, padded to 8. A `%s`
// with a precision stores at most that many bytes, as C reads no further.
//
// The buffer (`buffer`): `used` counts the bytes reserved, `lost` the records
// that did not fit. Records are reserved with one atomic add; the one that
// crosses the end writes a size of 0 at its place (the end), and every record
// that does not fit is dropped and counted. Each call also sets a word in
// host memory, `written`. The host reads the buffer only when no kernel runs
// on the device and that word is set, prints `lost` in one line, and resets
// the counters (runtime/lib/DevicePrintf.cpp).
//
// Devices have no long double: `%Lf` reads and prints a double. `%n` stores
// nothing (CUDA's printf has no `%n` either). Wide strings and characters
// (`%ls`, `%lc`) print as a pointer and a character code.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_DETAIL_PRINTF_RECORD_HPP
#define OFFLOAD_DETAIL_PRINTF_RECORD_HPP

#ifndef OFFLOAD_PRINTF_BUFFER_BYTES
/// Bytes of a device's printf buffer: CUDA's default printf FIFO size.
#define OFFLOAD_PRINTF_BUFFER_BYTES (1u << 20)
#endif

// The buffer's symbol. The program's offload entries tell the runtime which
// one the images have: with OFFLOAD_BUFFERED_PRINTF every device uses the
// buffer (NVIDIA GPUs instead of CUDA's vprintf, the host offload target
// instead of the host's printf), else only AMD GPUs do.
#ifdef OFFLOAD_BUFFERED_PRINTF
#define OFFLOAD_PRINTF_BUFFER_SYMBOL __ofld_printf_buffer_all
#else
#define OFFLOAD_PRINTF_BUFFER_SYMBOL __ofld_printf_buffer
#endif

namespace ofld::detail::printf_record {

using u8 = unsigned char;
using u32 = unsigned int;
using u64 = unsigned long long;

constexpr u64 buffer_bytes = OFFLOAD_PRINTF_BUFFER_BYTES;
static_assert(buffer_bytes % 8 == 0 && buffer_bytes >= 64,
              "OFFLOAD_PRINTF_BUFFER_BYTES: a multiple of 8, at least 64");

struct buffer {
  u64 used; ///< bytes reserved (may exceed buffer_bytes)
  u64 lost; ///< records that did not fit
  /// Host memory the device sets to 1 when it appends (or loses) a record,
  /// so that the host sees without a copy whether there is anything to
  /// print; null until the runtime has set it up.
  u64 *written;
  u64 reserved;
  alignas(8) u8 data[buffer_bytes];
};

/// The buffer's symbol (OFFLOAD_PRINTF_BUFFER_SYMBOL) in either mode.
constexpr const char *symbol = "__ofld_printf_buffer";
constexpr const char *symbol_all_devices = "__ofld_printf_buffer_all";

constexpr u64 header_bytes = 8;
constexpr u64 null_string = ~u64(0);

/// What a conversion reads from the argument list.
enum class arg_kind : u8 { none, sint, uint, fp, chr, str, ptr, count };

/// One conversion specification, from '%' to its conversion character.
struct spec {
  const char *end = nullptr; ///< one past the conversion character
  bool star_width = false, star_precision = false, has_precision = false;
  int precision = 0;    ///< the literal precision, when there is one
  bool wide = false;    ///< length of 64 bits (l, ll, q, j, z, t)
  bool is_long = false; ///< length `l` (for %lc, %ls)
  char conversion = 0;  ///< 0 where the format ends inside the spec
  arg_kind kind = arg_kind::none;
};

/// Parses the specification whose '%' is at `p`.
inline spec parse(const char *p) {
  spec s;
  ++p;
  while (*p == '-' || *p == '+' || *p == ' ' || *p == '#' || *p == '0' ||
         *p == '\'')
    ++p;
  if (*p == '*') {
    s.star_width = true;
    ++p;
  } else {
    while (*p >= '0' && *p <= '9')
      ++p;
  }
  if (*p == '.') {
    s.has_precision = true;
    ++p;
    if (*p == '*') {
      s.star_precision = true;
      ++p;
    } else {
      while (*p >= '0' && *p <= '9')
        s.precision = s.precision * 10 + (*p++ - '0');
    }
  }
  // Length: h and hh read an int like no length; the others 64 bits here
  // (LP64 on the host and on the GPUs); L a double (no long double).
  for (;; ++p) {
    if (*p == 'h' || *p == 'L')
      continue;
    if (*p == 'l' || *p == 'q' || *p == 'j' || *p == 'z' || *p == 't') {
      s.is_long = s.is_long || *p == 'l';
      s.wide = true;
      continue;
    }
    break;
  }
  s.conversion = *p;
  s.end = *p ? p + 1 : p;
  switch (*p) {
  case 'd':
  case 'i':
    s.kind = arg_kind::sint;
    break;
  case 'u':
  case 'o':
  case 'x':
  case 'X':
    s.kind = arg_kind::uint;
    break;
  case 'f':
  case 'F':
  case 'e':
  case 'E':
  case 'g':
  case 'G':
  case 'a':
  case 'A':
    s.kind = arg_kind::fp;
    break;
  case 'c':
    s.kind = arg_kind::chr;
    break;
  case 's':
    s.kind = s.is_long ? arg_kind::ptr : arg_kind::str;
    break;
  case 'p':
    s.kind = arg_kind::ptr;
    break;
  case 'n':
    s.kind = arg_kind::count;
    break;
  default: // '%', or a conversion C does not know: printed as written
    break;
  }
  return s;
}

inline u64 align8(u64 n) { return (n + 7) & ~u64(7); }

/// Stores `v` at `out + at` unless only measuring.
inline void put(u8 *out, u64 at, u64 v) {
  if (out)
    __builtin_memcpy(out + at, &v, sizeof v);
}

/// The arguments of a call as a va_list reads them (host, AMD GPUs).
struct va_args {
  __builtin_va_list ap;
  template <class T> T next() { return __builtin_va_arg(ap, T); }
};

/// The arguments as clang passes them to CUDA's vprintf: one after another,
/// each at its natural alignment (NVPTX has no va_arg in OpenMP code).
struct packed_args {
  const u8 *p;
  template <class T> T next() {
    p = reinterpret_cast<const u8 *>(
        (reinterpret_cast<u64>(p) + alignof(T) - 1) & ~u64(alignof(T) - 1));
    T v;
    __builtin_memcpy(&v, p, sizeof v);
    p += sizeof v;
    return v;
  }
};

/// Writes the record of `fmt` and its arguments `ap` (va_args or
/// packed_args, consumed) to `out` (8-aligned), or only measures it when
/// `out` is null. Returns its size in bytes and sets `args` to the number of
/// arguments it read.
template <class Args>
u64 encode(u8 *out, const char *fmt, Args &ap, int &args) {
  u64 fmt_len = 0;
  while (fmt[fmt_len])
    ++fmt_len;
  ++fmt_len;
  if (out)
    __builtin_memcpy(out + header_bytes, fmt, fmt_len);
  u64 at = header_bytes + align8(fmt_len);
  args = 0;
  for (const char *p = fmt; *p;) {
    if (*p != '%') {
      ++p;
      continue;
    }
    spec s = parse(p);
    p = s.end;
    int precision = s.precision;
    if (s.star_width) {
      put(out, at, u64(ap.template next<int>()));
      at += 8, ++args;
    }
    if (s.star_precision) {
      precision = ap.template next<int>();
      put(out, at, u64(precision));
      at += 8, ++args;
    }
    u64 v = 0;
    switch (s.kind) {
    case arg_kind::none:
      continue;
    case arg_kind::sint:
      v = s.wide ? u64(ap.template next<long long>())
                 : u64(ap.template next<int>());
      break;
    case arg_kind::uint:
      v = s.wide ? u64(ap.template next<unsigned long long>())
                 : u64(ap.template next<unsigned>());
      break;
    case arg_kind::fp: {
      double d = ap.template next<double>();
      __builtin_memcpy(&v, &d, sizeof v);
      break;
    }
    case arg_kind::chr:
      v = u64(ap.template next<int>());
      break;
    case arg_kind::ptr:
    case arg_kind::count:
      v = u64(ap.template next<void *>());
      break;
    case arg_kind::str: {
      const char *str = ap.template next<const char *>();
      ++args;
      if (!str) {
        put(out, at, null_string);
        at += 8;
        continue;
      }
      bool bounded = s.has_precision && precision >= 0;
      u64 len = 0;
      while ((!bounded || len < u64(precision)) && str[len])
        ++len;
      put(out, at, len);
      if (out) {
        __builtin_memcpy(out + at + 8, str, len);
        out[at + 8 + len] = 0;
      }
      at += 8 + align8(len + 1);
      continue;
    }
    }
    put(out, at, v);
    at += 8, ++args;
  }
  if (out) {
    u32 header[2] = {u32(at), u32(fmt_len)};
    __builtin_memcpy(out, header, sizeof header);
  }
  return at;
}

} // namespace ofld::detail::printf_record

#ifdef OFFLOAD_PRINTF_DECODER
#include <cstdio>
#include <cstring>
#include <string>

namespace ofld::detail::printf_record {

/// Appends what the host's printf makes of the record at `rec` (at most
/// `avail` bytes) to `out`. Returns the record's size, or 0 if the bytes
/// are no complete record (the end marker, or a damaged one).
inline u64 decode(const u8 *rec, u64 avail, std::string &out) {
  u32 header[2];
  if (avail < header_bytes)
    return 0;
  std::memcpy(header, rec, sizeof header);
  u64 size = header[0], fmt_len = header[1];
  if (size < header_bytes || size % 8 || size > avail || fmt_len == 0 ||
      header_bytes + align8(fmt_len) > size ||
      rec[header_bytes + fmt_len - 1] != 0)
    return 0;
  const char *fmt = reinterpret_cast<const char *>(rec + header_bytes);
  u64 at = header_bytes + align8(fmt_len);
  bool ok = true;
  auto next = [&]() -> u64 {
    u64 v = 0;
    if (at + 8 > size) {
      ok = false;
      return v;
    }
    std::memcpy(&v, rec + at, sizeof v);
    at += 8;
    return v;
  };
  // The specification as written, with `*` replaced by the stored values,
  // L dropped (a double was stored), and the value's own length for the
  // host's types.
  auto print = [&](const std::string &f, auto value) {
    int n = std::snprintf(nullptr, 0, f.c_str(), value);
    if (n <= 0)
      return;
    std::size_t old = out.size();
    out.resize(old + std::size_t(n) + 1);
    std::snprintf(&out[old], std::size_t(n) + 1, f.c_str(), value);
    out.resize(old + std::size_t(n));
  };
  for (const char *p = fmt; *p && ok;) {
    if (*p != '%') {
      const char *q = std::strchr(p, '%');
      std::size_t n = q ? std::size_t(q - p) : std::strlen(p);
      out.append(p, n);
      p += n;
      continue;
    }
    spec s = parse(p);
    std::string f;
    for (const char *q = p; q != s.end; ++q) {
      if (*q == 'L')
        continue;
      if (*q == '*') {
        long long v = (long long)next();
        int n = int(v);
        // A negative precision is as if there were none.
        if (q[-1] == '.' && n < 0) {
          f.pop_back();
          continue;
        }
        f += std::to_string(n);
        continue;
      }
      f += *q;
    }
    p = s.end;
    switch (s.kind) {
    case arg_kind::none:
      if (s.conversion == '%')
        out += '%';
      else
        out += f;
      break;
    case arg_kind::sint: {
      u64 v = next();
      if (s.wide)
        print(f, (long long)v);
      else
        print(f, int(v));
      break;
    }
    case arg_kind::uint: {
      u64 v = next();
      if (s.wide)
        print(f, (unsigned long long)v);
      else
        print(f, unsigned(v));
      break;
    }
    case arg_kind::fp: {
      u64 v = next();
      double d;
      std::memcpy(&d, &v, sizeof d);
      print(f, d);
      break;
    }
    case arg_kind::chr:
      print(f, int(next()));
      break;
    case arg_kind::ptr: {
      if (s.conversion == 's') // %ls: the pointer
        f.back() = 'p';
      std::size_t l = f.find('l');
      if (l != std::string::npos)
        f.erase(l, 1);
      print(f, reinterpret_cast<void *>(next()));
      break;
    }
    case arg_kind::count:
      next();
      break;
    case arg_kind::str: {
      u64 len = next();
      if (len == null_string) {
        print(f, static_cast<const char *>(nullptr));
        break;
      }
      if (at + align8(len + 1) > size || rec[at + len] != 0) {
        ok = false;
        break;
      }
      print(f, reinterpret_cast<const char *>(rec + at));
      at += align8(len + 1);
      break;
    }
    }
  }
  return ok ? size : 0;
}

} // namespace ofld::detail::printf_record
#endif // OFFLOAD_PRINTF_DECODER

#endif // OFFLOAD_DETAIL_PRINTF_RECORD_HPP
