// CUB's reduction kernels and their dispatch (CUB 3.0's DispatchReduce): up to one
// tile (TILE_ITEMS) DeviceReduceSingleTileKernel<<<1, 256>>> alone; above, first
// DeviceReduceKernel<<<min(tiles, 5 x device occupancy), 256>>> — block b reduces
// tiles b, b + grid, ... into one partial — then DeviceReduceSingleTileKernel over the
// partials; its thread 0 stores reduction_op(init, aggregate). The same grids as CUB
// on the H200 (docs/validation/h200-cub.md), so a float sum has the H200's bits.
#pragma once
#include "cub/agent/agent_reduce.cuh"
#include "cub/device/detail/device_launch.cuh"

#include <iterator>
#include <type_traits>

namespace cub {
namespace detail {
namespace reduce {

// Any other random-access iterator: items read through operator[], each transformed
// (TransformReduce) before it is combined, never vectorized.
template <class It, class Transform = Identity> struct IteratorInput {
  using Raw = std::remove_cv_t<std::remove_reference_t<decltype(std::declval<It>()[0])>>;
  static constexpr bool vectorizable = false;
  It data;
  mutable Transform transform;  // a functor's operator() need not be const
  __device__ __forceinline__ auto item(long long i) const {
    if constexpr (std::is_same_v<Transform, Identity>) return Raw(data[i]);
    else return transform(data[i]);
  }
};

template <class It, class Transform = Identity> auto make_input(It it, Transform t = {}) {
  if constexpr (std::is_pointer_v<It>) {
    return PointerInput<std::remove_cv_t<std::remove_pointer_t<It>>, Transform>{it, t};
  } else {
    return IteratorInput<It, Transform>{it, t};
  }
}
template <class It> using value_of = std::remove_cv_t<std::remove_reference_t<decltype(*std::declval<It>())>>;

// Where thread 0 of the last kernel writes the result.
template <class It> struct IteratorOutput {
  It it;
  template <class V> __device__ __forceinline__ void store(const V& v) const {
    if constexpr (std::is_pointer_v<It> && std::is_same_v<std::remove_cv_t<std::remove_pointer_t<It>>, V>) store_words(it, v);
    else *it = v;
  }
};
template <class V, class I> struct SplitArgOutput {  // CUDA 13's ArgMin(d_in, d_min_out, d_index_out, n)
  V* value;
  I* index;
  template <class K, class T> __device__ __forceinline__ void store(const KeyValuePair<K, T>& p) const {
    *value = p.value;
    *index = I(p.key);
  }
};

// CUB's empty_problem_init_t (ArgMin, ArgMax): written only for an empty input; otherwise
// the aggregate alone is stored.
template <class T> struct EmptyProblemInit {
  T value;
};
template <class Output, class Op, class Init, class AccumT>
__device__ __forceinline__ void finalize(const Output& out, Op op, const Init& init, const AccumT& aggregate) {
  out.store(op(init, aggregate));
}
template <class Output, class Op, class T, class AccumT>
__device__ __forceinline__ void finalize(const Output& out, Op, const EmptyProblemInit<T>&, const AccumT& aggregate) {
  out.store(aggregate);
}
template <class T> __device__ __forceinline__ const T& empty_value(const T& init) { return init; }
template <class T> __device__ __forceinline__ const T& empty_value(const EmptyProblemInit<T>& init) { return init.value; }

template <class PolicyT, class AccumT, class Input, class Op>
__global__ void DeviceReduceKernel(Input in, AccumT* d_out, long long num_items, int grid, Op op) {
  using Agent = AgentReduce<PolicyT, AccumT, Input, Op>;
  __shared__ typename Agent::TempStorage temp;
  const AccumT aggregate = Agent{temp, in, op}.ConsumeTiles(num_items, grid);
  if (threadIdx.x == 0) store_words(d_out + blockIdx.x, aggregate);
}

template <class PolicyT, class AccumT, class Input, class Output, class Op, class Init>
__global__ void DeviceReduceSingleTileKernel(Input in, Output out, long long num_items, Op op, Init init) {
  using Agent = AgentReduce<PolicyT, AccumT, Input, Op>;
  __shared__ typename Agent::TempStorage temp;
  if (num_items == 0) {
    if (threadIdx.x == 0) out.store(empty_value(init));
    return;
  }
  const AccumT aggregate = Agent{temp, in, op}.ConsumeRange(0, num_items);
  if (threadIdx.x == 0) finalize(out, op, init, aggregate);
}

template <class AccumT, class Input, class Output, class Op, class Init>
cudaError_t dispatch(void* d_temp_storage, std::size_t& temp_storage_bytes, Input in, Output out, long long num_items,
                     Op op, Init init, cudaStream_t stream) {
  using P = Policy<AccumT>;
  using device::launch;
  if (num_items <= P::TILE_ITEMS) {
    if (d_temp_storage == nullptr) {
      temp_storage_bytes = 1;
      return cudaSuccess;
    }
    return launch(&DeviceReduceSingleTileKernel<P, AccumT, Input, Output, Op, Init>, 1, P::BLOCK_THREADS, stream, in, out,
                  num_items, op, init);
  }
  auto* first = &DeviceReduceKernel<P, AccumT, Input, Op>;
  const int max_blocks = device::device_occupancy(first, P::BLOCK_THREADS) * 5;  // CUB's subscription factor
  const int grid = std::min(device::ceil_div(num_items, P::TILE_ITEMS), max_blocks);
  void* pieces[1];
  const std::size_t sizes[1] = {std::size_t(max_blocks) * sizeof(AccumT)};
  if (cudaError_t e = device::alias_temporaries(d_temp_storage, temp_storage_bytes, pieces, sizes); e || !d_temp_storage)
    return e;
  auto* partials = static_cast<AccumT*>(pieces[0]);
  if (cudaError_t e = launch(first, grid, P::BLOCK_THREADS, stream, in, partials, num_items, grid, op)) return e;
  using Partials = PointerInput<AccumT>;
  return launch(&DeviceReduceSingleTileKernel<P, AccumT, Partials, Output, Op, Init>, 1, P::BLOCK_THREADS, stream,
                Partials{partials, {}}, out, (long long)grid, op, init);
}

}  // namespace reduce
}  // namespace detail
}  // namespace cub
