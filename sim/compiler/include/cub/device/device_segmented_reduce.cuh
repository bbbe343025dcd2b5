// cub::DeviceSegmentedReduce: Reduce, Sum, Min, Max over segments given by begin and
// end offsets. As CUB 3.0: DeviceSegmentedReduceKernel<<<num_segments, 256>>>, one
// block per segment reducing [begin, end) with AgentReduce (so a float segment sum has
// the same order as a single-tile DeviceReduce of that range), thread 0 storing
// reduction_op(init, aggregate); an empty segment gets init.
#pragma once
#include "cub/device/dispatch_reduce.cuh"

#include <limits>

namespace cub {
namespace detail {
namespace reduce {

template <class PolicyT, class AccumT, class Input, class OutputIt, class BeginIt, class EndIt, class Op, class Init>
__global__ void DeviceSegmentedReduceKernel(Input in, OutputIt out, BeginIt begins, EndIt ends, Op op, Init init) {
  using Agent = AgentReduce<PolicyT, AccumT, Input, Op>;
  __shared__ typename Agent::TempStorage temp;
  const long long begin = begins[blockIdx.x], end = ends[blockIdx.x];
  if (end <= begin) {
    if (threadIdx.x == 0) out[blockIdx.x] = init;
    return;
  }
  const AccumT aggregate = Agent{temp, in, op}.ConsumeRange(begin, end);
  if (threadIdx.x == 0) out[blockIdx.x] = op(init, aggregate);
}

}  // namespace reduce
}  // namespace detail

struct DeviceSegmentedReduce {
  template <class InputIt, class OutputIt, class BeginIt, class EndIt, class ReductionOp, class T>
  static cudaError_t Reduce(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                            int num_segments, BeginIt d_begin_offsets, EndIt d_end_offsets, ReductionOp reduction_op,
                            T initial_value, cudaStream_t stream = 0) {
    using Value = detail::reduce::value_of<InputIt>;
    using AccumT = std::decay_t<std::invoke_result_t<ReductionOp&, T, Value>>;
    using P = detail::reduce::Policy<AccumT>;
    if (d_temp_storage == nullptr) {
      temp_storage_bytes = 1;
      return cudaSuccess;
    }
    if (num_segments <= 0) return cudaSuccess;
    auto in = detail::reduce::make_input(d_in);
    return detail::device::launch(
        &detail::reduce::DeviceSegmentedReduceKernel<P, AccumT, decltype(in), OutputIt, BeginIt, EndIt, ReductionOp, AccumT>,
        num_segments, P::BLOCK_THREADS, stream, in, d_out, d_begin_offsets, d_end_offsets, reduction_op, AccumT(initial_value));
  }
  template <class InputIt, class OutputIt, class BeginIt, class EndIt>
  static cudaError_t Sum(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                         int num_segments, BeginIt d_begin_offsets, EndIt d_end_offsets, cudaStream_t stream = 0) {
    using T = detail::reduce::value_of<InputIt>;
    return Reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_begin_offsets, d_end_offsets,
                  ::cuda::std::plus<>{}, T{}, stream);
  }
  template <class InputIt, class OutputIt, class BeginIt, class EndIt>
  static cudaError_t Min(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                         int num_segments, BeginIt d_begin_offsets, EndIt d_end_offsets, cudaStream_t stream = 0) {
    using T = detail::reduce::value_of<InputIt>;
    return Reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_begin_offsets, d_end_offsets,
                  ::cuda::minimum<>{}, std::numeric_limits<T>::max(), stream);
  }
  template <class InputIt, class OutputIt, class BeginIt, class EndIt>
  static cudaError_t Max(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                         int num_segments, BeginIt d_begin_offsets, EndIt d_end_offsets, cudaStream_t stream = 0) {
    using T = detail::reduce::value_of<InputIt>;
    return Reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_begin_offsets, d_end_offsets,
                  ::cuda::maximum<>{}, std::numeric_limits<T>::lowest(), stream);
  }
};

}  // namespace cub
