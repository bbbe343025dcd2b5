// cub::DeviceRunLengthEncode::Encode: the first item of each run of equal items, each
// run's length, and the number of runs, with CUB's two calls. The runs' heads are
// selected as DeviceSelect::Unique selects them (keeping their positions), then
// DeviceRunLengthKernel takes the differences of consecutive positions. (CUB 3.0 runs
// DeviceCompactInitKernel and DeviceReduceByKeyKernel; the outputs are the same.)
#pragma once
#include "cub/device/dispatch_select.cuh"

namespace cub {

struct DeviceRunLengthEncode {
  template <class InputIt, class UniqueOutputIt, class LengthsOutputIt, class NumRunsOutputIt, class NumItemsT>
  static cudaError_t Encode(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, UniqueOutputIt d_unique_out,
                            LengthsOutputIt d_counts_out, NumRunsOutputIt d_num_runs_out, NumItemsT num_items,
                            cudaStream_t stream = 0) {
    using namespace detail::select;
    const long long n = (long long)num_items;
    Storage storage;  // the runs' first positions go in the extra piece
    if (cudaError_t e = plan(d_temp_storage, temp_storage_bytes, n, std::size_t(std::max(1LL, n)) * sizeof(long long), storage);
        e || !d_temp_storage)
      return e;
    auto* starts = static_cast<long long*>(storage.extra);
    CopyItemAndPosition<InputIt, UniqueOutputIt> write{d_in, d_unique_out, starts};
    if (cudaError_t e = run(storage, RunHeads<InputIt>{d_in}, write, d_num_runs_out, n, stream)) return e;
    if (n == 0) return cudaSuccess;
    return detail::device::launch(&DeviceRunLengthKernel<LengthsOutputIt, NumRunsOutputIt>, detail::device::ceil_div(n, 256), 256,
                                  stream, (const long long*)starts, d_counts_out, d_num_runs_out, n);
  }
};

}  // namespace cub
