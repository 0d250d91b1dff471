//===- offload/offload.hpp - offload user API and launch ABI ----*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// What a kernel author and a launching host program see:
//
//   [[offload::kernel]] void saxpy(float a, std::span<const float> x,
//                                  std::span<float> y);
//   offload(saxpy, 2.0f, x, y);
//   offload(ofld::launch{.grid = {4096}, .block = {256}}, saxpy, 2.0f, x, y);
//
// With the plugin loaded this header is bundled into the compiler and
// included automatically; `offload` is then only declared and every call is
// lowered by the plugin into the libomptarget launch sequence. Without the
// plugin (g++, plain clang++) the same source runs its kernels on the CPU
// with the same grid semantics.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_OFFLOAD_HPP
#define OFFLOAD_OFFLOAD_HPP

#include "offload/launch.hpp"
#include "offload/device.hpp"
#include "offload/detail/cpu_grid.hpp"
#include "offload/region.hpp"

#include <type_traits>

#if !defined(__OFFLOAD_PLUGIN__) && !defined(OFFLOAD_GPU_DEVICE)
#include "offload/cpu_fallback.hpp"
#endif

#if defined(__OFFLOAD_PLUGIN__)
// Every call is rewritten by the plugin: it checks the call, fills the hidden
// `__ofld_site` descriptor from the kernel's parameter types and lowers the
// marker symbol into the libomptarget launch sequence. Parameters arrive by
// address whatever their C++ type, so the lowering is ABI independent.
template <class... P>
void offload(void (*kernel)(P...), const std::type_identity_t<P> &...args,
             const char *__ofld_site = nullptr) __asm__("__ofld_launch");
template <class... P>
void offload(const ofld::launch &shape, void (*kernel)(P...),
             const std::type_identity_t<P> &...args,
             const char *__ofld_site = nullptr)
    __asm__("__ofld_launch_shaped");
#endif

#if !defined(__OFFLOAD_PLUGIN__) && !defined(OFFLOAD_GPU_DEVICE)
namespace __ofld {
template <class... P>
void cpu_offload(const ofld::launch *shape, void (*kernel)(P...),
                 const std::type_identity_t<P> &...args) {
  long long Count = default_count<P...>(args...);
  ofld::launch L = shape ? *shape : ofld::launch{};
  std::uint32_t Block = L.block.x ? L.block.x : (Count >= 0 ? 256 : 1);
  std::uint32_t Grid =
      L.grid.x ? L.grid.x
               : (Count >= 0 ? std::uint32_t((Count + Block - 1) / Block) : 1);
  std::uint32_t Dims[6] = {Grid,
                           L.grid.x ? (L.grid.y ? L.grid.y : 1) : 1,
                           L.grid.x ? (L.grid.z ? L.grid.z : 1) : 1,
                           Block,
                           L.block.x ? (L.block.y ? L.block.y : 1) : 1,
                           L.block.x ? (L.block.z ? L.block.z : 1) : 1};
  // Parameters are built exactly as an ordinary call would build them.
  void *Objs[sizeof...(P) + 1] = {
      const_cast<void *>(static_cast<const void *>(&args))...};
  cpu_grid(Dims, kernel, Objs);
}
} // namespace __ofld
#endif

#endif // OFFLOAD_OFFLOAD_HPP
