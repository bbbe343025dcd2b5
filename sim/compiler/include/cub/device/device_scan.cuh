// cub::DeviceScan: InclusiveSum, ExclusiveSum, InclusiveScan, ExclusiveScan (in place
// too), with CUB's two calls. Kernels and the order of a float scan:
// cub/device/dispatch_scan.cuh.
#pragma once
#include "cub/device/dispatch_scan.cuh"

namespace cub {

struct DeviceScan {
  template <class InputIt, class OutputIt, class NumItemsT>
  static cudaError_t InclusiveSum(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                                  NumItemsT num_items, cudaStream_t stream = 0) {
    return InclusiveScan(d_temp_storage, temp_storage_bytes, d_in, d_out, ::cuda::std::plus<>{}, num_items, stream);
  }
  template <class InputIt, class OutputIt, class NumItemsT>
  static cudaError_t ExclusiveSum(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                                  NumItemsT num_items, cudaStream_t stream = 0) {
    using V = std::remove_cv_t<std::remove_reference_t<decltype(*d_in)>>;
    return ExclusiveScan(d_temp_storage, temp_storage_bytes, d_in, d_out, ::cuda::std::plus<>{}, V{}, num_items, stream);
  }
  template <class InputIt, class OutputIt, class ScanOp, class NumItemsT>
  static cudaError_t InclusiveScan(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                                   ScanOp scan_op, NumItemsT num_items, cudaStream_t stream = 0) {
    using V = std::remove_cv_t<std::remove_reference_t<decltype(*d_in)>>;
    using AccumT = std::decay_t<std::invoke_result_t<ScanOp&, V, V>>;
    return detail::scan::dispatch<AccumT, true>(d_temp_storage, temp_storage_bytes, d_in, d_out, scan_op, AccumT{},
                                                (long long)num_items, stream);
  }
  template <class InputIt, class OutputIt, class ScanOp, class InitValueT, class NumItemsT>
  static cudaError_t ExclusiveScan(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                                   ScanOp scan_op, InitValueT init_value, NumItemsT num_items, cudaStream_t stream = 0) {
    using V = std::remove_cv_t<std::remove_reference_t<decltype(*d_in)>>;
    using AccumT = std::decay_t<std::invoke_result_t<ScanOp&, InitValueT, V>>;
    return detail::scan::dispatch<AccumT, false>(d_temp_storage, temp_storage_bytes, d_in, d_out, scan_op, AccumT(init_value),
                                                 (long long)num_items, stream);
  }
};

}  // namespace cub
