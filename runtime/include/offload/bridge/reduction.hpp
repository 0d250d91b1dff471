//===- offload/bridge/reduction.hpp - reduction parameters ------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Not for users. A reduction parameter of a rewritten call: every kernel
// thread's accumulator comes back from the device, and the host folds them
// in the plugin's order (offload/reduction.hpp), so both builds agree bit
// for bit.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BRIDGE_REDUCTION_HPP
#define OFFLOAD_BRIDGE_REDUCTION_HPP

#include "offload/bridge/grid.hpp"

namespace ofld::bridge {

/// A reduction parameter (`ofld::sum<T>&`, min, max) of a rewritten call:
/// every kernel thread's accumulator comes back (`data()`, mapped from the
/// device, one value per thread in linear order), and `fold` combines them
/// on the host in the order of reduction.hpp -- the plugin's result, bit for
/// bit, without OpenMP's reduction clause, which neither the bare form (no
/// device runtime) nor a team-generic grid can use.
template <class R> class reduction {
public:
  using value_type = typename R::value_type;
  using traits = ofld::detail::reduce_traits<R::op, value_type>;

  explicit reduction(const grid &G)
      : Block(G.dims[3] * G.dims[4] * G.dims[5]),
        Blocks(std::uint64_t(G.dims[0]) * G.dims[1] * G.dims[2]),
        Values(Blocks * Block, traits::identity()) {}
  value_type *data() { return Values.data(); }
  std::size_t size() const { return Values.size(); }

  /// `Target` combined with every thread's contributions.
  void fold(value_type &Target) {
#if !defined(OFFLOAD_GPU_DEVICE)
    if (!Blocks || !Block)
      return;
    std::vector<value_type> Folds(Block);
    for (std::uint64_t B = 0; B < Blocks; ++B)
      __ofld::reduce::cpu_fold_block<traits>(
          Folds.data(), Block, B,
          __ofld::reduce::cpu_block_tree<traits>(&Values[B * Block], Block));
    Target = traits::apply(Target, __ofld::reduce::cpu_grid_result<traits>(
                                       Folds.data(), Block, Blocks));
#else
    (void)Target;
#endif
  }

private:
  std::uint32_t Block;
  std::uint64_t Blocks;
  std::vector<value_type> Values;
};

} // namespace ofld::bridge

#if defined(_OPENMP)
#pragma omp declare target
#endif
namespace ofld::bridge {

/// One kernel thread's accumulator of a reduction parameter (`R`:
/// ofld::sum<T>, min or max), handed to the kernel, then stored at the
/// thread's linear number in the grid (ofld::bridge::reduction).
template <class R> class accumulator {
  struct acc_t : R {
    acc_t() {}
  } Acc;

public:
  R &get() { return Acc; }
  void store(typename R::value_type *Values) {
    std::uint64_t Block =
        ofld::block_id(0) +
        std::uint64_t(ofld::grid_dim(0)) *
            (ofld::block_id(1) +
             std::uint64_t(ofld::grid_dim(1)) * ofld::block_id(2));
    std::uint64_t Thread =
        ofld::thread_id(0) +
        std::uint64_t(ofld::block_dim(0)) *
            (ofld::thread_id(1) +
             std::uint64_t(ofld::block_dim(1)) * ofld::thread_id(2));
    std::uint64_t Threads = std::uint64_t(ofld::block_dim(0)) *
                            ofld::block_dim(1) * ofld::block_dim(2);
    Values[Block * Threads + Thread] = ofld::detail::reduce_access::value(Acc);
  }
};

} // namespace ofld::bridge
#if defined(_OPENMP)
#pragma omp end declare target
#endif

#endif // OFFLOAD_BRIDGE_REDUCTION_HPP
