// cub::DeviceRadixSort: SortKeys, SortPairs and their Descending forms, on a bit range
// [begin_bit, end_bit), with CUB's two calls. Stable; CUB's key order. Kernels:
// cub/device/dispatch_radix_sort.cuh.
#pragma once
#include "cub/device/dispatch_radix_sort.cuh"

namespace cub {

struct DeviceRadixSort {
  template <class Key, class Value, class NumItemsT>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in, Key* d_keys_out,
                               const Value* d_values_in, Value* d_values_out, NumItemsT num_items, int begin_bit = 0,
                               int end_bit = sizeof(Key) * 8, cudaStream_t stream = 0) {
    return detail::radix::dispatch(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out,
                                   (long long)num_items, begin_bit, end_bit, false, stream);
  }
  template <class Key, class Value, class NumItemsT>
  static cudaError_t SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in,
                                         Key* d_keys_out, const Value* d_values_in, Value* d_values_out,
                                         NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(Key) * 8,
                                         cudaStream_t stream = 0) {
    return detail::radix::dispatch(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out,
                                   (long long)num_items, begin_bit, end_bit, true, stream);
  }
  template <class Key, class NumItemsT>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in, Key* d_keys_out,
                              NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(Key) * 8, cudaStream_t stream = 0) {
    return detail::radix::dispatch(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, (const NullType*)nullptr,
                                   (NullType*)nullptr, (long long)num_items, begin_bit, end_bit, false, stream);
  }
  template <class Key, class NumItemsT>
  static cudaError_t SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in,
                                        Key* d_keys_out, NumItemsT num_items, int begin_bit = 0,
                                        int end_bit = sizeof(Key) * 8, cudaStream_t stream = 0) {
    return detail::radix::dispatch(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, (const NullType*)nullptr,
                                   (NullType*)nullptr, (long long)num_items, begin_bit, end_bit, true, stream);
  }
};

}  // namespace cub
