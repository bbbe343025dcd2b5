// The kernels of cub::DeviceSelect (If, Flagged, Unique) and
// cub::DeviceRunLengthEncode::Encode on the simulator: a stable compaction of the
// items whose flag is set, in input order, and the count written to
// d_num_selected_out. CUB 3.0 runs DeviceCompactInitKernel and one
// DeviceSelectSweepKernel whose tiles chain their output offsets by decoupled
// look-back; a simulated block may not wait for another, so simtlab counts each
// tile's selected items first (DeviceSelectUpsweepKernel), folds the counts into
// offsets and the total (DeviceSelectPrefixKernel), then scatters
// (DeviceSelectSweepKernel: a block-wide exclusive sum of the flags ranks each item).
// The outputs are the same; the input is read twice.
#pragma once
#include "cub/block/block_scan.cuh"
#include "cub/device/detail/device_launch.cuh"

#include <algorithm>

namespace cub {
namespace detail {
namespace select {

inline constexpr int THREADS = 128, ITEMS = 16, TILE_ITEMS = THREADS * ITEMS;

// Which items are kept: flag(i) for item i of n.
template <class InputIt, class Pred> struct IfFlags {
  InputIt in;
  Pred pred;
  __device__ __forceinline__ bool operator()(long long i) const { return bool(pred(in[i])); }
};
template <class FlagIt> struct GivenFlags {
  FlagIt flags;
  __device__ __forceinline__ bool operator()(long long i) const { return bool(flags[i]); }
};
template <class InputIt> struct RunHeads {  // Unique, run-length encoding: the first of each run
  InputIt in;
  __device__ __forceinline__ bool operator()(long long i) const { return i == 0 || !(in[i] == in[i - 1]); }
};

// What a kept item writes at its output slot: the item, and for RLE also its position.
template <class InputIt, class OutputIt> struct CopyItem {
  InputIt in;
  OutputIt out;
  __device__ __forceinline__ void operator()(long long slot, long long i) const { out[slot] = in[i]; }
};
template <class InputIt, class OutputIt> struct CopyItemAndPosition {
  InputIt in;
  OutputIt out;
  long long* positions;
  __device__ __forceinline__ void operator()(long long slot, long long i) const {
    out[slot] = in[i];
    positions[slot] = i;
  }
};

template <class Flags>
__device__ __forceinline__ void tile_flags(Flags flag, long long num_items, int (&kept)[ITEMS]) {
  const long long base = (long long)blockIdx.x * TILE_ITEMS + (long long)threadIdx.x * ITEMS;
  for (int i = 0; i < ITEMS; ++i) kept[i] = base + i < num_items && flag(base + i) ? 1 : 0;
}

template <class Flags> __global__ void DeviceSelectUpsweepKernel(Flags flag, long long num_items, int* counts) {
  using Scan = BlockScan<int, THREADS, BLOCK_SCAN_WARP_SCANS>;
  __shared__ typename Scan::TempStorage temp;
  int kept[ITEMS], aggregate;
  tile_flags(flag, num_items, kept);
  Scan(temp).ExclusiveScan(kept, kept, 0, ::cuda::std::plus<>{}, aggregate);
  if (threadIdx.x == 0) counts[blockIdx.x] = aggregate;
}

template <class NumSelectedIt>
__global__ void DeviceSelectPrefixKernel(const int* counts, long long* offsets, int tiles, NumSelectedIt num_selected) {
  long long running = 0;
  for (int j = 0; j < tiles; ++j) {
    offsets[j] = running;
    running += counts[j];
  }
  *num_selected = running;
}

template <class Flags, class Write>
__global__ void DeviceSelectSweepKernel(Flags flag, Write write, const long long* offsets, long long num_items) {
  using Scan = BlockScan<int, THREADS, BLOCK_SCAN_WARP_SCANS>;
  __shared__ typename Scan::TempStorage temp;
  int kept[ITEMS], rank[ITEMS], aggregate;
  tile_flags(flag, num_items, kept);
  Scan(temp).ExclusiveScan(kept, rank, 0, ::cuda::std::plus<>{}, aggregate);
  const long long base = (long long)blockIdx.x * TILE_ITEMS + (long long)threadIdx.x * ITEMS, offset = offsets[blockIdx.x];
  for (int i = 0; i < ITEMS; ++i)
    if (kept[i]) write(offset + rank[i], base + i);
}

// Run lengths from the runs' first positions: lengths[r] = start[r + 1] - start[r].
template <class LengthIt, class NumRunsIt>
__global__ void DeviceRunLengthKernel(const long long* starts, LengthIt lengths, NumRunsIt num_runs, long long num_items) {
  const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long runs = *num_runs;
  if (r < runs) lengths[r] = (r + 1 < runs ? starts[r + 1] : num_items) - starts[r];
}

// The temp storage: each tile's count and output offset, and `extra_bytes` for the caller.
struct Storage {
  int* counts = nullptr;
  long long* offsets = nullptr;
  void* extra = nullptr;
};
inline cudaError_t plan(void* d_temp_storage, std::size_t& temp_storage_bytes, long long num_items, std::size_t extra_bytes,
                        Storage& storage) {
  const int tiles = std::max(1, device::ceil_div(num_items, TILE_ITEMS));
  void* pieces[3];
  const std::size_t sizes[3] = {tiles * sizeof(int), tiles * sizeof(long long), std::max<std::size_t>(1, extra_bytes)};
  if (cudaError_t e = device::alias_temporaries(d_temp_storage, temp_storage_bytes, pieces, sizes); e || !d_temp_storage)
    return e;
  storage = {static_cast<int*>(pieces[0]), static_cast<long long*>(pieces[1]), pieces[2]};
  return cudaSuccess;
}

// An empty input runs only the prefix kernel, which writes 0 to d_num_selected_out.
template <class Flags, class Write, class NumSelectedIt>
cudaError_t run(const Storage& storage, Flags flag, Write write, NumSelectedIt num_selected, long long num_items,
                cudaStream_t stream) {
  using device::launch;
  const int grid = num_items > 0 ? device::ceil_div(num_items, TILE_ITEMS) : 0;
  if (grid > 0)
    if (cudaError_t e = launch(&DeviceSelectUpsweepKernel<Flags>, grid, THREADS, stream, flag, num_items, storage.counts)) return e;
  if (cudaError_t e = launch(&DeviceSelectPrefixKernel<NumSelectedIt>, 1, 1, stream, (const int*)storage.counts,
                             storage.offsets, grid, num_selected))
    return e;
  if (grid == 0) return cudaSuccess;
  return launch(&DeviceSelectSweepKernel<Flags, Write>, grid, THREADS, stream, flag, write, (const long long*)storage.offsets,
                num_items);
}

template <class Flags, class Write, class NumSelectedIt>
cudaError_t dispatch(void* d_temp_storage, std::size_t& temp_storage_bytes, Flags flag, Write write,
                     NumSelectedIt num_selected, long long num_items, cudaStream_t stream) {
  Storage storage;
  if (cudaError_t e = plan(d_temp_storage, temp_storage_bytes, num_items, 0, storage); e || !d_temp_storage) return e;
  return run(storage, flag, write, num_selected, num_items, stream);
}

}  // namespace select
}  // namespace detail
}  // namespace cub
