//===- offload/device_libc.hpp - C library parts kernels use -*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Device compiles link no C library (-nogpulib; Debian's LLVM 22 has no GPU
// libc), so what kernel code reaches of it is defined here for GPUs. The CPU
// paths (host offload target, builds without the plugin) use the host's.
//
// assert: <assert.h> calls __assert_fail(expr, file, line, function) when
// NDEBUG is unset (with NDEBUG nothing is emitted). On NVIDIA GPUs the first
// failing thread of the program reports through CUDA's own assertion
// (__assertfail, resolved by ptxas like vprintf), one line:
//   file:line: function: block: [x,y,z], thread: [x,y,z] Assertion `e` failed.
// The kernel then stops with "device-side assert triggered" and libomptarget
// aborts the program, with lines of its own. Other failing threads wait for
// that without a line of their own. On AMD GPUs the kernel stops (trap)
// without a line: libomptarget ends the program before the runtime could
// print the device's buffered output.
//
// printf: clang lowers it to CUDA's vprintf on NVIDIA GPUs. AMD GPUs have
// no device output of their own here (no hostcall service in libomptarget
// 22, no GPU C library in Debian's LLVM): there printf appends records to a
// buffer in device memory that the runtime prints when the kernel has
// finished (offload/detail/printf_record.hpp,
// runtime/lib/DevicePrintf.cpp). OFFLOAD_BUFFERED_PRINTF gives NVIDIA
// GPUs (clang's lowered printf then calls __ofld_vprintf instead of vprintf)
// and the host offload target the same buffer, which tests the mechanism on
// NVIDIA hardware and in CI.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_DEVICE_LIBC_HPP
#define OFFLOAD_DEVICE_LIBC_HPP

#include "offload/detail/printf_record.hpp"

#if defined(__OFFLOAD_PLUGIN__)
// Every image has the buffer (the host's copy is the key libomptarget maps
// it by); the runtime reads it only on devices whose printf uses it.
#pragma omp declare target
extern "C" {
[[gnu::used]] inline ofld::detail::printf_record::buffer
    OFFLOAD_PRINTF_BUFFER_SYMBOL;
}
#pragma omp end declare target
#endif

#if defined(__NVPTX__) || defined(__AMDGPU__)
#include <assert.h>
#include <gpuintrin.h>
#include <stddef.h>

#pragma omp declare target
#if defined(__NVPTX__)
extern "C" void __assertfail(const char *expr, const char *file, unsigned line,
                             const char *function, size_t char_size);
/// Set by the first failing assertion of the program (device image).
inline unsigned __ofld_assert_reported = 0;
#endif

extern "C" inline void __assert_fail(const char *expr, const char *file,
                                     unsigned line,
                                     const char *function) noexcept {
#if defined(__NVPTX__)
  if (__atomic_exchange_n(&__ofld_assert_reported, 1u, __ATOMIC_RELAXED) == 0)
    __assertfail(expr, file, line, function, sizeof(char));
  // The reporting thread's assertion stops the kernel; until then the other
  // failing threads sleep (GPUs since Volta schedule diverged threads
  // independently, so the reporter makes progress).
  for (;;)
    __gpu_thread_suspend();
#else
  (void)expr, (void)file, (void)line, (void)function;
  __builtin_trap();
#endif
}

#pragma omp end declare target
#endif

// Device code of AMD GPUs, and of every target with OFFLOAD_BUFFERED_PRINTF
// (NVIDIA GPUs, and the host offload target, where CI tests it).
#if defined(__OFFLOAD_PLUGIN_DEVICE__) &&                                      \
    (defined(__AMDGPU__) || defined(OFFLOAD_BUFFERED_PRINTF))
#pragma omp declare target
namespace ofld::detail::printf_record {
/// Appends the record of one printf call to the device's buffer. Returns the
/// number of arguments read, as CUDA's printf does, or -1 if the record did
/// not fit (the runtime then reports it as lost).
template <class Args> int append(const char *fmt, const Args &ap) noexcept {
  Args measure = ap;
  int args = 0;
  u64 size = encode(nullptr, fmt, measure, args);
  buffer &b = OFFLOAD_PRINTF_BUFFER_SYMBOL;
  u64 at = __atomic_fetch_add(&b.used, size, __ATOMIC_RELAXED);
  if (u64 *written = b.written)
    *written = 1;
  if (at + size > buffer_bytes) {
    // The record that crosses the end marks it: the host stops there.
    if (at < buffer_bytes)
      put(b.data, at, 0);
    __atomic_fetch_add(&b.lost, 1, __ATOMIC_RELAXED);
    return -1;
  }
  Args write = ap;
  encode(b.data + at, fmt, write, args);
  return args;
}
} // namespace ofld::detail::printf_record

#if defined(__NVPTX__)
// clang lowers printf to vprintf(format, packed arguments).
extern "C" [[gnu::weak]] int __ofld_vprintf(const char *fmt,
                                            const void *args) noexcept {
  namespace r = ofld::detail::printf_record;
  return r::append(fmt, r::packed_args{static_cast<const r::u8 *>(args)});
}
#else
extern "C" [[gnu::weak]] int __ofld_vprintf(const char *fmt,
                                            __builtin_va_list ap) noexcept {
  namespace r = ofld::detail::printf_record;
  r::va_args a;
  __builtin_va_copy(a.ap, ap);
  int n = r::append(fmt, a);
  __builtin_va_end(a.ap);
  return n;
}
#endif

#if !defined(__NVPTX__)
// The buffered printf: the plugin points kernel code's printf calls here
// (plugin/CodeGen/DeviceLibraries.cpp). Weak: every translation unit has it.
extern "C" [[gnu::weak]] int __ofld_printf(const char *fmt, ...) noexcept {
  __builtin_va_list ap;
  __builtin_va_start(ap, fmt);
  int n = __ofld_vprintf(fmt, ap);
  __builtin_va_end(ap);
  return n;
}
#endif
#pragma omp end declare target
#endif

#endif // OFFLOAD_DEVICE_LIBC_HPP
