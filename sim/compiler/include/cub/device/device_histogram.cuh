// cub::DeviceHistogram: HistogramEven and HistogramRange (one channel), with CUB's
// two calls. As CUB 3.0: DeviceHistogramInitKernel zeroes the counters, then
// DeviceHistogramSweepKernel (384 threads, 16 samples each per tile) counts each tile
// in a shared-memory histogram (up to 256 bins; global atomics beyond) and adds it to
// the output with atomics. Bins as CUB computes them: HistogramEven on floats
// int((sample - lower) * (bins / (upper - lower))), on integers
// (sample - lower) * bins / (upper - lower) in 32- or 64-bit unsigned arithmetic;
// HistogramRange the last level not above the sample. Samples outside [lower, upper)
// are not counted. Counts are exact whatever the order of the atomics.
#pragma once
#include "cub/device/detail/device_launch.cuh"

#include <type_traits>

namespace cub {
namespace detail {
namespace histogram {

inline constexpr int THREADS = 384, ITEMS = 16, TILE_ITEMS = THREADS * ITEMS, SHARED_BINS = 256;

template <class Sample, class Level> struct EvenBins {
  using Common = std::common_type_t<Sample, Level>;
  using Wide = std::conditional_t<sizeof(Sample) + sizeof(Common) <= 4, unsigned, unsigned long long>;
  Common lower, upper, scale;  // scale: bins / (upper - lower) for floating point
  Common range;
  int bins;
  __device__ __forceinline__ int operator()(Sample s) const {
    const Common c = Common(s);
    if (!(c >= lower && c < upper)) return -1;
    int bin;
    if constexpr (std::is_floating_point_v<Common>) bin = int((c - lower) * scale);
    else bin = int((Wide(c - lower) * Wide(bins)) / Wide(range));
    return bin < bins ? bin : -1;
  }
};
template <class Sample, class Level> struct RangeBins {
  const Level* levels;
  int num_levels;
  __device__ __forceinline__ int operator()(Sample s) const {
    int lo = 0, hi = num_levels;  // CUB's UpperBound: the first level above the sample
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      if (Level(s) < levels[mid]) hi = mid;
      else lo = mid + 1;
    }
    const int bin = lo - 1;
    return bin < num_levels - 1 ? bin : -1;
  }
};

template <class Counter> __global__ void DeviceHistogramInitKernel(Counter* histogram, int bins) {
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < bins) histogram[i] = Counter(0);
}

template <class SampleIt, class Counter, class BinOp>
__global__ void DeviceHistogramSweepKernel(SampleIt samples, long long num_samples, Counter* histogram, int bins, BinOp bin_of) {
  __shared__ int privatized[SHARED_BINS];
  const bool shared = bins <= SHARED_BINS;
  if (shared)
    for (int b = threadIdx.x; b < bins; b += THREADS) privatized[b] = 0;
  __syncthreads();
  const long long offset = (long long)blockIdx.x * TILE_ITEMS;
  for (int i = 0; i < ITEMS; ++i) {
    const long long at = offset + i * THREADS + threadIdx.x;
    if (at >= num_samples) break;
    const int bin = bin_of(samples[at]);
    if (bin < 0) continue;
    if (shared) atomicAdd(&privatized[bin], 1);
    else atomicAdd(&histogram[bin], Counter(1));
  }
  __syncthreads();
  if (shared)
    for (int b = threadIdx.x; b < bins; b += THREADS)
      if (privatized[b]) atomicAdd(&histogram[b], Counter(privatized[b]));
}

template <class SampleIt, class Counter, class BinOp>
cudaError_t dispatch(void* d_temp_storage, std::size_t& temp_storage_bytes, SampleIt samples, Counter* histogram, int bins,
                     long long num_samples, BinOp bin_of, cudaStream_t stream) {
  if (d_temp_storage == nullptr) {
    temp_storage_bytes = 1;
    return cudaSuccess;
  }
  if (bins <= 0) return cudaSuccess;
  using device::launch;
  if (cudaError_t e = launch(&DeviceHistogramInitKernel<Counter>, device::ceil_div(bins, 256), 256, stream, histogram, bins))
    return e;
  if (num_samples <= 0) return cudaSuccess;
  return launch(&DeviceHistogramSweepKernel<SampleIt, Counter, BinOp>, device::ceil_div(num_samples, TILE_ITEMS), THREADS,
                stream, samples, num_samples, histogram, bins, bin_of);
}

}  // namespace histogram
}  // namespace detail

struct DeviceHistogram {
  template <class SampleIt, class Counter, class Level, class OffsetT>
  static cudaError_t HistogramEven(void* d_temp_storage, std::size_t& temp_storage_bytes, SampleIt d_samples,
                                   Counter* d_histogram, int num_levels, Level lower_level, Level upper_level,
                                   OffsetT num_samples, cudaStream_t stream = 0) {
    using Sample = std::remove_cv_t<std::remove_reference_t<decltype(*d_samples)>>;
    using Bins = detail::histogram::EvenBins<Sample, Level>;
    using Common = typename Bins::Common;
    Bins bins{Common(lower_level), Common(upper_level), Common(0), Common(Common(upper_level) - Common(lower_level)),
              num_levels - 1};
    if constexpr (std::is_floating_point_v<Common>)
      bins.scale = Common(Common(num_levels - 1) / Common(Common(upper_level) - Common(lower_level)));
    return detail::histogram::dispatch(d_temp_storage, temp_storage_bytes, d_samples, d_histogram, num_levels - 1,
                                       (long long)num_samples, bins, stream);
  }
  template <class SampleIt, class Counter, class Level, class OffsetT>
  static cudaError_t HistogramRange(void* d_temp_storage, std::size_t& temp_storage_bytes, SampleIt d_samples,
                                    Counter* d_histogram, int num_levels, const Level* d_levels, OffsetT num_samples,
                                    cudaStream_t stream = 0) {
    using Sample = std::remove_cv_t<std::remove_reference_t<decltype(*d_samples)>>;
    return detail::histogram::dispatch(d_temp_storage, temp_storage_bytes, d_samples, d_histogram, num_levels - 1,
                                       (long long)num_samples, detail::histogram::RangeBins<Sample, Level>{d_levels, num_levels},
                                       stream);
  }
};

}  // namespace cub
