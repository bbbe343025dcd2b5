// cub::DeviceReduce: Reduce, Sum, Min, Max, ArgMin, ArgMax, TransformReduce, with
// CUB's two calls (d_temp_storage == nullptr: only temp_storage_bytes is set) and
// CUB 3.0's initial values (Sum: T{}, Min: numeric_limits::max(), Max: lowest()).
// The kernels run on the simulator: cub/device/dispatch_reduce.cuh.
#pragma once
#include "cub/device/dispatch_reduce.cuh"

#include <functional>
#include <limits>

namespace cub {

struct DeviceReduce {
  template <class InputIt, class OutputIt, class ReductionOp, class T, class NumItemsT>
  static cudaError_t Reduce(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                            NumItemsT num_items, ReductionOp reduction_op, T init, cudaStream_t stream = 0) {
    using Value = detail::reduce::value_of<InputIt>;
    using AccumT = std::decay_t<std::invoke_result_t<ReductionOp&, T, Value>>;
    return detail::reduce::dispatch<AccumT>(d_temp_storage, temp_storage_bytes, detail::reduce::make_input(d_in),
                                            detail::reduce::IteratorOutput<OutputIt>{d_out}, (long long)num_items,
                                            reduction_op, AccumT(init), stream);
  }

  template <class InputIt, class OutputIt, class NumItemsT>
  static cudaError_t Sum(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                         NumItemsT num_items, cudaStream_t stream = 0) {
    using T = output_or_input_t<OutputIt, InputIt>;
    return Reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, ::cuda::std::plus<>{}, T{}, stream);
  }
  template <class InputIt, class OutputIt, class NumItemsT>
  static cudaError_t Min(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                         NumItemsT num_items, cudaStream_t stream = 0) {
    using T = detail::reduce::value_of<InputIt>;
    return Reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, ::cuda::minimum<>{},
                  std::numeric_limits<T>::max(), stream);
  }
  template <class InputIt, class OutputIt, class NumItemsT>
  static cudaError_t Max(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                         NumItemsT num_items, cudaStream_t stream = 0) {
    using T = detail::reduce::value_of<InputIt>;
    return Reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, ::cuda::maximum<>{},
                  std::numeric_limits<T>::lowest(), stream);
  }

  // The older form: one KeyValuePair<int, T> out (index, value).
  template <class T, class K, class V>
  static cudaError_t ArgMin(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, KeyValuePair<K, V>* d_out,
                            int num_items, cudaStream_t stream = 0) {
    return arg_reduce(d_temp_storage, temp_storage_bytes, d_in, detail::reduce::IteratorOutput<KeyValuePair<K, V>*>{d_out},
                      num_items, cub::ArgMin{}, std::numeric_limits<T>::max(), stream);
  }
  template <class T, class K, class V>
  static cudaError_t ArgMax(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, KeyValuePair<K, V>* d_out,
                            int num_items, cudaStream_t stream = 0) {
    return arg_reduce(d_temp_storage, temp_storage_bytes, d_in, detail::reduce::IteratorOutput<KeyValuePair<K, V>*>{d_out},
                      num_items, cub::ArgMax{}, std::numeric_limits<T>::lowest(), stream);
  }
  // CUDA 13's form: the extremum and its index to separate outputs.
  template <class T, class V, class I, class NumItemsT, std::enable_if_t<std::is_integral_v<NumItemsT>, int> = 0>
  static cudaError_t ArgMin(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, V* d_min_out,
                            I* d_index_out, NumItemsT num_items, cudaStream_t stream = 0) {
    return arg_reduce(d_temp_storage, temp_storage_bytes, d_in, detail::reduce::SplitArgOutput<V, I>{d_min_out, d_index_out},
                      (long long)num_items, cub::ArgMin{}, std::numeric_limits<T>::max(), stream);
  }
  template <class T, class V, class I, class NumItemsT, std::enable_if_t<std::is_integral_v<NumItemsT>, int> = 0>
  static cudaError_t ArgMax(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, V* d_max_out,
                            I* d_index_out, NumItemsT num_items, cudaStream_t stream = 0) {
    return arg_reduce(d_temp_storage, temp_storage_bytes, d_in, detail::reduce::SplitArgOutput<V, I>{d_max_out, d_index_out},
                      (long long)num_items, cub::ArgMax{}, std::numeric_limits<T>::lowest(), stream);
  }

  template <class InputIt, class OutputIt, class ReductionOp, class TransformOp, class T, class NumItemsT>
  static cudaError_t TransformReduce(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                                     NumItemsT num_items, ReductionOp reduction_op, TransformOp transform_op, T init,
                                     cudaStream_t stream = 0) {
    using Value = std::decay_t<std::invoke_result_t<TransformOp&, detail::reduce::value_of<InputIt>>>;
    using AccumT = std::decay_t<std::invoke_result_t<ReductionOp&, T, Value>>;
    return detail::reduce::dispatch<AccumT>(d_temp_storage, temp_storage_bytes,
                                            detail::reduce::make_input(d_in, transform_op),
                                            detail::reduce::IteratorOutput<OutputIt>{d_out}, (long long)num_items,
                                            reduction_op, AccumT(init), stream);
  }

 private:
  template <class OutputIt, class InputIt>
  using output_or_input_t = std::conditional_t<std::is_void_v<typename std::iterator_traits<OutputIt>::value_type>,
                                               detail::reduce::value_of<InputIt>,
                                               typename std::iterator_traits<OutputIt>::value_type>;

  // Items paired with their indices, reduced by ArgMin/ArgMax; an empty input gives
  // (1, the operator's identity) as CUB does.
  template <class T, class Output, class Op>
  static cudaError_t arg_reduce(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, Output out,
                                long long num_items, Op op, T identity, cudaStream_t stream) {
    using AccumT = KeyValuePair<int, T>;
    using Init = detail::reduce::EmptyProblemInit<AccumT>;
    return detail::reduce::dispatch<AccumT>(d_temp_storage, temp_storage_bytes, detail::reduce::ArgIndexInput<T>{d_in, {}},
                                            out, num_items, op, Init{AccumT(1, identity)}, stream);
  }
};

}  // namespace cub
