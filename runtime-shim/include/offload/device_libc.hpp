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
// without a line: there is no device output there.
//
// printf: clang lowers it to CUDA's vprintf on NVIDIA GPUs.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_DEVICE_LIBC_HPP
#define OFFLOAD_DEVICE_LIBC_HPP

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

#endif // OFFLOAD_DEVICE_LIBC_HPP
