// cub::DeviceSelect: If (a predicate), Flagged (a flag per item), Unique (the first of
// each run of equal items), with CUB's two calls; the kept items in input order and
// their count in d_num_selected_out. Kernels: cub/device/dispatch_select.cuh.
#pragma once
#include "cub/device/dispatch_select.cuh"

namespace cub {

struct DeviceSelect {
  template <class InputIt, class OutputIt, class NumSelectedIt, class SelectOp, class NumItemsT>
  static cudaError_t If(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                        NumSelectedIt d_num_selected_out, NumItemsT num_items, SelectOp select_op, cudaStream_t stream = 0) {
    using namespace detail::select;
    return dispatch(d_temp_storage, temp_storage_bytes, IfFlags<InputIt, SelectOp>{d_in, select_op},
                    CopyItem<InputIt, OutputIt>{d_in, d_out}, d_num_selected_out, (long long)num_items, stream);
  }
  template <class InputIt, class FlagIt, class OutputIt, class NumSelectedIt, class NumItemsT>
  static cudaError_t Flagged(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, FlagIt d_flags,
                             OutputIt d_out, NumSelectedIt d_num_selected_out, NumItemsT num_items, cudaStream_t stream = 0) {
    using namespace detail::select;
    return dispatch(d_temp_storage, temp_storage_bytes, GivenFlags<FlagIt>{d_flags}, CopyItem<InputIt, OutputIt>{d_in, d_out},
                    d_num_selected_out, (long long)num_items, stream);
  }
  template <class InputIt, class OutputIt, class NumSelectedIt, class NumItemsT>
  static cudaError_t Unique(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                            NumSelectedIt d_num_selected_out, NumItemsT num_items, cudaStream_t stream = 0) {
    using namespace detail::select;
    return dispatch(d_temp_storage, temp_storage_bytes, RunHeads<InputIt>{d_in}, CopyItem<InputIt, OutputIt>{d_in, d_out},
                    d_num_selected_out, (long long)num_items, stream);
  }
};

}  // namespace cub
