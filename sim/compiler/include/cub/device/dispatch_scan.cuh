// CUB's DeviceScan kernels with CUB 3.0's sm_90 tiles (tuning_scan.cuh: 128 threads x
// 24 items for 4-byte primitive sums and min/max, 224 x 12 for 8-byte ones, 128 x 15
// for any other operator; loads and stores through BLOCK_LOAD/STORE_WARP_TRANSPOSE,
// BLOCK_SCAN_WARP_SCANS). Within a tile the order is CUB's: each thread's items reduced
// by ThreadReduce, a block-wide exclusive scan of those partials, each thread's own
// scan from its prefix.
//
// Across tiles CUB uses a single pass with decoupled look-back: a tile's prefix is
// whatever mix of its predecessors' published aggregates and inclusive prefixes it
// finds, which depends on timing (three runs on the H200 gave three different float
// outputs for 2^20 items; docs/validation/h200-cub.md). simtlab's blocks run in no
// fixed order and a block may not wait for another, so the prefixes come from two
// launches first: DeviceScanUpsweepKernel (each tile's aggregate, in the tile scan's
// own order) and DeviceScanPrefixKernel (one thread folds them left to right:
// prefix[j+1] = prefix[j] + aggregate[j]). That is the order the GPU produces when
// every predecessor had published its inclusive prefix. Integer results are exact
// either way; the input is read twice where CUB reads it once.
#pragma once
#include "cub/block/block_load.cuh"
#include "cub/block/block_scan.cuh"
#include "cub/block/block_store.cuh"
#include "cub/device/detail/device_launch.cuh"

#include <algorithm>
#include <type_traits>

namespace cub {
namespace detail {
namespace scan {

// CUB's basic_binary_op_t: plus, minimum, maximum of any type.
template <class Op> struct primitive_op : std::false_type {};
template <class T> struct primitive_op<::cuda::std::plus<T>> : std::true_type {};
template <class T> struct primitive_op<::cuda::minimum<T>> : std::true_type {};
template <class T> struct primitive_op<::cuda::maximum<T>> : std::true_type {};
template <class Op> inline constexpr bool primitive_op_v = primitive_op<Op>::value;

// CUB's MemBoundScaling of a nominal (threads, items) for 4-byte items.
template <class AccumT, int THREADS, int ITEMS> struct Scaled {
  static constexpr int ITEMS_PER_THREAD = std::max(1, std::min(ITEMS * 4 / int(sizeof(AccumT)), ITEMS * 2));
  static constexpr int BLOCK_THREADS =
      std::min(THREADS, (48 * 1024 / (int(sizeof(AccumT)) * ITEMS_PER_THREAD) + 31) / 32 * 32);
};
template <class AccumT, class Op, bool TUNED = primitive_op_v<Op> && std::is_arithmetic_v<AccumT>> struct Policy
    : Scaled<AccumT, 128, 15> {};
template <class AccumT, class Op> struct Policy<AccumT, Op, true>
    : std::conditional_t<sizeof(AccumT) == 1, Scaled<AccumT, 192, 22>,
      std::conditional_t<sizeof(AccumT) == 2, Scaled<AccumT, 512, 12>,
      std::conditional_t<sizeof(AccumT) == 4, Scaled<AccumT, 128, 24>, Scaled<AccumT, 224, 24>>>> {};

template <class P, class AccumT> struct Tile {
  static constexpr int THREADS = P::BLOCK_THREADS, ITEMS = P::ITEMS_PER_THREAD, ITEMS_PER_TILE = THREADS * ITEMS;
  using Load = BlockLoad<AccumT, THREADS, ITEMS, BLOCK_LOAD_WARP_TRANSPOSE>;
  using Store = BlockStore<AccumT, THREADS, ITEMS, BLOCK_STORE_WARP_TRANSPOSE>;
  using Scan = BlockScan<AccumT, THREADS, BLOCK_SCAN_WARP_SCANS>;
  union TempStorage {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
    typename Scan::TempStorage scan;
  };

  // CUB's last tile is padded with its first item (outputs past the end are dropped).
  template <class InputIt>
  __device__ __forceinline__ static void load(TempStorage& temp, InputIt in, long long offset, int valid, AccumT (&items)[ITEMS]) {
    if (valid == ITEMS_PER_TILE) Load(temp.load).Load(in + offset, items);
    else Load(temp.load).Load(in + offset, items, valid, AccumT(*(in + offset)));
  }
  __device__ __forceinline__ static int valid_items(long long num_items) {
    return int(std::min<long long>(ITEMS_PER_TILE, num_items - (long long)blockIdx.x * ITEMS_PER_TILE));
  }
};

// The prefix a tile's warp 0 asks for (CUB's TilePrefixCallbackOp, here a lookup).
template <class AccumT> struct TilePrefix {
  const AccumT* prefixes;
  __device__ __forceinline__ AccumT operator()(const AccumT&) const { return prefixes[blockIdx.x]; }
};

template <class P, class AccumT, class InputIt, class Op>
__global__ void DeviceScanUpsweepKernel(InputIt in, AccumT* aggregates, long long num_items, Op op) {
  using T = Tile<P, AccumT>;
  __shared__ typename T::TempStorage temp;
  AccumT items[T::ITEMS];
  T::load(temp, in, (long long)blockIdx.x * T::ITEMS_PER_TILE, T::valid_items(num_items), items);
  __syncthreads();
  AccumT partial = ThreadReduce(items, op), ignored, aggregate;
  typename T::Scan(temp.scan).ExclusiveScan(partial, ignored, op, aggregate);
  if (threadIdx.x == 0) aggregates[blockIdx.x] = aggregate;
}

// prefixes[j] for tiles 1..tiles-1: the seed (init, or tile 0's aggregate) folded with
// each following aggregate in turn.
template <class AccumT, class Op, class Init>
__global__ void DeviceScanPrefixKernel(const AccumT* aggregates, AccumT* prefixes, int tiles, Op op, Init init, bool has_init) {
  AccumT running = has_init ? AccumT(op(AccumT(init), aggregates[0])) : aggregates[0];
  for (int j = 1; j < tiles; ++j) {
    prefixes[j] = running;
    if (j + 1 < tiles) running = op(running, aggregates[j]);
  }
}

template <class P, class AccumT, bool INCLUSIVE, class InputIt, class OutputIt, class Op, class Init>
__global__ void DeviceScanKernel(InputIt in, OutputIt out, const AccumT* prefixes, long long num_items, Op op, Init init) {
  using T = Tile<P, AccumT>;
  __shared__ typename T::TempStorage temp;
  const long long offset = (long long)blockIdx.x * T::ITEMS_PER_TILE;
  const int valid = T::valid_items(num_items);
  AccumT items[T::ITEMS];
  T::load(temp, in, offset, valid, items);
  __syncthreads();
  typename T::Scan scan(temp.scan);
  if (blockIdx.x == 0) {
    AccumT aggregate;
    if constexpr (INCLUSIVE) scan.InclusiveScan(items, items, op, aggregate);
    else scan.ExclusiveScan(items, items, AccumT(init), op, aggregate);
  } else {
    TilePrefix<AccumT> prefix{prefixes};
    if constexpr (INCLUSIVE) scan.InclusiveScan(items, items, op, prefix);
    else scan.ExclusiveScan(items, items, op, prefix);
  }
  __syncthreads();
  if (valid == T::ITEMS_PER_TILE) typename T::Store(temp.store).Store(out + offset, items);
  else typename T::Store(temp.store).Store(out + offset, items, valid);
}

template <class AccumT, bool INCLUSIVE, class InputIt, class OutputIt, class Op, class Init>
cudaError_t dispatch(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt in, OutputIt out, Op op, Init init,
                     long long num_items, cudaStream_t stream) {
  using P = Policy<AccumT, Op>;
  using T = Tile<P, AccumT>;
  using device::launch;
  const int tiles = device::ceil_div(num_items, T::ITEMS_PER_TILE);
  void* pieces[2];
  const std::size_t sizes[2] = {std::size_t(std::max(tiles, 1)) * sizeof(AccumT), std::size_t(std::max(tiles, 1)) * sizeof(AccumT)};
  if (cudaError_t e = device::alias_temporaries(d_temp_storage, temp_storage_bytes, pieces, sizes); e || !d_temp_storage)
    return e;
  if (num_items == 0) return cudaSuccess;
  auto* aggregates = static_cast<AccumT*>(pieces[0]);
  auto* prefixes = static_cast<AccumT*>(pieces[1]);
  if (tiles > 1) {
    if (cudaError_t e = launch(&DeviceScanUpsweepKernel<P, AccumT, InputIt, Op>, tiles, P::BLOCK_THREADS, stream, in,
                               aggregates, num_items, op))
      return e;
    if (cudaError_t e = launch(&DeviceScanPrefixKernel<AccumT, Op, Init>, 1, 1, stream, (const AccumT*)aggregates, prefixes,
                               tiles, op, init, !INCLUSIVE))
      return e;
  }
  return launch(&DeviceScanKernel<P, AccumT, INCLUSIVE, InputIt, OutputIt, Op, Init>, tiles, P::BLOCK_THREADS, stream, in,
                out, (const AccumT*)prefixes, num_items, op, init);
}

}  // namespace scan
}  // namespace detail
}  // namespace cub
