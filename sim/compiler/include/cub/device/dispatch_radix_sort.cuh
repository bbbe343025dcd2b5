// cub::DeviceRadixSort's kernels on the simulator. Results are CUB's exactly: a stable
// least-significant-digit sort by CUB's twiddled key bits over [begin_bit, end_bit)
// (floats: -0.0 ranks as +0.0 and keeps its bits; descending: the bits inverted,
// equal keys still in input order), which is what the H200 returned for every sort of
// tests/libs/cub_device.cu.
//
// How the work is split is simtlab's: CUB 3.0 on sm_90 sorts with onesweep
// (DeviceRadixSortHistogramKernel, DeviceRadixSortExclusiveSumKernel, then one
// DeviceRadixSortOnesweepKernel per 8-bit digit, whose tiles chain their bucket
// offsets by decoupled look-back). A simulated block may not wait for another, so
// simtlab uses CUB's older three-kernel pass for each 8-bit digit:
// DeviceRadixSortUpsweepKernel (each tile's digit counts), RadixSortScanBinsKernel
// (one block scans them digit-major) and DeviceRadixSortDownsweepKernel (each tile
// ranks its items stably with cub::BlockRadixSort and scatters them). Inputs of at
// most one tile (256 x 19 four-byte items) take DeviceRadixSortSingleTileKernel, as on the GPU.
#pragma once
#include "cub/block/block_radix_sort.cuh"
#include "cub/block/block_scan.cuh"
#include "cub/device/detail/device_launch.cuh"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace cub {
namespace detail {
namespace radix {

inline constexpr int DIGIT_BITS = 8, DIGITS = 1 << DIGIT_BITS;
inline constexpr int THREADS = 256, ITEMS = 16, TILE_ITEMS = THREADS * ITEMS;
inline constexpr int SINGLE_THREADS = 256;
// CUB's single-tile policy: 19 four-byte items per thread, fewer for wider keys or
// values (RegBoundScaling of the larger of the two).
template <class Key, class Value> inline constexpr int single_items_v =
    std::max(1, 19 * 4 / std::max<int>(4, std::max(sizeof(Key), std::is_same_v<Value, NullType> ? 0 : sizeof(Value))));
inline constexpr int SCAN_THREADS = 1024;

// The bits a key sorts by (CUB's twiddle; -0.0 as +0.0).
template <class Key> __device__ __forceinline__ unsigned_bits_t<Key> sort_bits(Key key, bool descending) {
  if constexpr (std::is_floating_point_v<Key>) {
    if (key == Key(0)) key = Key(0);
  }
  return twiddle_in(key, descending);
}
template <class Key> __device__ __forceinline__ int digit_of(Key key, int bit, int width, bool descending) {
  return int((sort_bits(key, descending) >> bit) & ((1u << width) - 1u));
}

template <class Key>
__global__ void DeviceRadixSortUpsweepKernel(const Key* keys, int* counts, long long num_items, int tiles, int bit,
                                             int width, bool descending) {
  __shared__ int histogram[DIGITS];
  for (int d = threadIdx.x; d < DIGITS; d += THREADS) histogram[d] = 0;
  __syncthreads();
  const long long offset = (long long)blockIdx.x * TILE_ITEMS;
  const int valid = int(std::min<long long>(TILE_ITEMS, num_items - offset));
  for (int i = threadIdx.x; i < valid; i += THREADS) atomicAdd(&histogram[digit_of(keys[offset + i], bit, width, descending)], 1);
  __syncthreads();
  for (int d = threadIdx.x; d < DIGITS; d += THREADS) counts[d * tiles + blockIdx.x] = histogram[d];
}

// counts[digit * tiles + tile] scanned in place: where each tile's items of each digit go.
__global__ void RadixSortScanBinsKernel(int* counts, int total) {
  using Scan = BlockScan<int, SCAN_THREADS, BLOCK_SCAN_WARP_SCANS>;
  constexpr int PER = 4;
  __shared__ typename Scan::TempStorage temp;
  int carry = 0;
  for (int base = 0; base < total; base += SCAN_THREADS * PER) {
    int items[PER], aggregate;
    for (int i = 0; i < PER; ++i) {
      const int at = base + int(threadIdx.x) * PER + i;
      items[i] = at < total ? counts[at] : 0;
    }
    Scan(temp).ExclusiveScan(items, items, carry, ::cuda::std::plus<>{}, aggregate);
    for (int i = 0; i < PER; ++i) {
      const int at = base + int(threadIdx.x) * PER + i;
      if (at < total) counts[at] = items[i];
    }
    carry += aggregate;
    __syncthreads();
  }
}

// Stable ranks of a tile's items by digit: sort (digit, position) pairs in the block;
// items past the end get digit DIGITS, after every real one. The digits are sorted as
// 4-byte words: simtlab's race check sees two threads' 2-byte shared stores into one
// word as a race.
template <int BLOCK, int N, class Key> struct TileRanks {
  using Sort = BlockRadixSort<unsigned, BLOCK, N, int>;
  struct TempStorage {
    typename Sort::TempStorage sort;
    int first[DIGITS + 1];
    unsigned last[BLOCK];
  };
  // After the call, thread t's i-th slot is sorted position t*N+i: its digit, the
  // tile position it came from, and its rank among the tile's items of that digit.
  __device__ __forceinline__ static void rank(TempStorage& temp, const Key* keys, long long offset, int valid, int bit,
                                              int width, bool descending, unsigned (&digit)[N], int (&from)[N],
                                              int (&rank_in_digit)[N]) {
    for (int i = 0; i < N; ++i) {
      const int at = int(threadIdx.x) * N + i;
      from[i] = at;
      digit[i] = at < valid ? unsigned(digit_of(keys[offset + at], bit, width, descending)) : unsigned(DIGITS);
    }
    Sort(temp.sort).Sort(digit, from, 0, DIGIT_BITS + 1);
    temp.last[threadIdx.x] = digit[N - 1];
    __syncthreads();
    for (int i = 0; i < N; ++i) {
      const unsigned before = i > 0 ? digit[i - 1] : threadIdx.x > 0 ? temp.last[threadIdx.x - 1] : ~0u;
      if (digit[i] != before) temp.first[digit[i]] = int(threadIdx.x) * N + i;
    }
    __syncthreads();
    for (int i = 0; i < N; ++i) rank_in_digit[i] = int(threadIdx.x) * N + i - temp.first[digit[i]];
  }
};

template <class Key, class Value>
__global__ void DeviceRadixSortDownsweepKernel(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out,
                                               const int* offsets, long long num_items, int tiles, int bit, int width,
                                               bool descending) {
  using Ranks = TileRanks<THREADS, ITEMS, Key>;
  __shared__ typename Ranks::TempStorage temp;
  const long long offset = (long long)blockIdx.x * TILE_ITEMS;
  const int valid = int(std::min<long long>(TILE_ITEMS, num_items - offset));
  unsigned digit[ITEMS];
  int from[ITEMS], rank[ITEMS];
  Ranks::rank(temp, keys_in, offset, valid, bit, width, descending, digit, from, rank);
  for (int i = 0; i < ITEMS; ++i) {
    if (digit[i] == DIGITS) continue;
    const long long to = offsets[digit[i] * tiles + blockIdx.x] + rank[i];
    keys_out[to] = keys_in[offset + from[i]];
    if constexpr (!std::is_same_v<Value, NullType>) values_out[to] = values_in[offset + from[i]];
  }
}

// One block sorts everything by all of [begin_bit, end_bit).
template <class Key, class Value>
__global__ void DeviceRadixSortSingleTileKernel(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out,
                                                int num_items, int begin_bit, int end_bit, bool descending) {
  using Bits = unsigned_bits_t<Key>;
  constexpr int SINGLE_ITEMS = single_items_v<Key, Value>;
  using Sort = BlockRadixSort<Bits, SINGLE_THREADS, SINGLE_ITEMS, int>;
  __shared__ typename Sort::TempStorage temp;
  Bits bits[SINGLE_ITEMS];
  int from[SINGLE_ITEMS];
  for (int i = 0; i < SINGLE_ITEMS; ++i) {
    const int at = int(threadIdx.x) * SINGLE_ITEMS + i;
    from[i] = at;
    bits[i] = at < num_items ? sort_bits(keys_in[at], descending) : Bits(~Bits(0));
  }
  Sort(temp).Sort(bits, from, begin_bit, end_bit);
  for (int i = 0; i < SINGLE_ITEMS; ++i) {
    const int to = int(threadIdx.x) * SINGLE_ITEMS + i;
    if (to >= num_items) continue;
    keys_out[to] = keys_in[from[i]];
    if constexpr (!std::is_same_v<Value, NullType>) values_out[to] = values_in[from[i]];
  }
}

template <class Key, class Value>
cudaError_t dispatch(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* keys_in, Key* keys_out,
                     const Value* values_in, Value* values_out, long long num_items, int begin_bit, int end_bit,
                     bool descending, cudaStream_t stream) {
  using device::launch;
  constexpr bool PAIRS = !std::is_same_v<Value, NullType>;
  const int tiles = std::max(1, device::ceil_div(num_items, TILE_ITEMS));
  const bool single = num_items <= SINGLE_THREADS * single_items_v<Key, Value>;
  void* pieces[3];
  const std::size_t sizes[3] = {single ? 1 : std::size_t(DIGITS) * tiles * sizeof(int),
                                single ? 1 : std::size_t(num_items) * sizeof(Key),
                                single || !PAIRS ? 1 : std::size_t(num_items) * sizeof(Value)};
  if (cudaError_t e = device::alias_temporaries(d_temp_storage, temp_storage_bytes, pieces, sizes); e || !d_temp_storage)
    return e;
  if (num_items == 0) return cudaSuccess;
  if (single)
    return launch(&DeviceRadixSortSingleTileKernel<Key, Value>, 1, SINGLE_THREADS, stream, keys_in, keys_out, values_in,
                  values_out, int(num_items), begin_bit, end_bit, descending);
  const int passes = (std::max(0, end_bit - begin_bit) + DIGIT_BITS - 1) / DIGIT_BITS;
  if (passes == 0) {  // no bits to sort by: the input, unchanged
    cudaError_t e = cudaMemcpyAsync(keys_out, keys_in, num_items * sizeof(Key), cudaMemcpyDeviceToDevice, stream);
    if constexpr (PAIRS)
      if (!e) e = cudaMemcpyAsync(values_out, values_in, num_items * sizeof(Value), cudaMemcpyDeviceToDevice, stream);
    return e;
  }
  auto* counts = static_cast<int*>(pieces[0]);
  Key* keys_alt = static_cast<Key*>(pieces[1]);
  Value* values_alt = static_cast<Value*>(pieces[2]);
  const Key* src_keys = keys_in;
  const Value* src_values = values_in;
  for (int p = 0; p < passes; ++p) {
    const int bit = begin_bit + p * DIGIT_BITS, width = std::min(DIGIT_BITS, end_bit - bit);
    // Ping-pong so that the last pass writes the caller's output.
    const bool to_out = (passes - 1 - p) % 2 == 0;
    Key* dst_keys = to_out ? keys_out : keys_alt;
    Value* dst_values = to_out ? values_out : values_alt;
    if (cudaError_t e = launch(&DeviceRadixSortUpsweepKernel<Key>, tiles, THREADS, stream, src_keys, counts, num_items, tiles,
                               bit, width, descending))
      return e;
    if (cudaError_t e = launch(&RadixSortScanBinsKernel, 1, SCAN_THREADS, stream, counts, DIGITS * tiles)) return e;
    if (cudaError_t e = launch(&DeviceRadixSortDownsweepKernel<Key, Value>, tiles, THREADS, stream, src_keys, dst_keys,
                               src_values, dst_values, (const int*)counts, num_items, tiles, bit, width, descending))
      return e;
    src_keys = dst_keys;
    src_values = dst_values;
  }
  return cudaSuccess;
}

}  // namespace radix
}  // namespace detail
}  // namespace cub
