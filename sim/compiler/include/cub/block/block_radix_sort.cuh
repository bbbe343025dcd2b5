// cub::BlockRadixSort: a block-wide least-significant-digit radix sort of each
// thread's blocked keys (and values), ascending or descending, over bits
// [begin_bit, end_bit) of CUB's twiddled key bits (floats: negative values
// bit-inverted, positive ones with the sign bit set, NaNs by their bits; signed
// integers: the sign bit flipped). As in CUB, -0.0 and +0.0 are one digit (CUB's
// ProcessFloatMinusZero: both read as +0.0, the keys keep their bits), so they keep
// their input order in either direction. The sort is stable,
// so the result — keys and the order of equal keys' values — is the one CUB's
// BlockRadixSort gives. The passes are simtlab's own (per-thread digit counts, one
// block scan of all counts, a scatter through shared memory), not CUB's
// BlockRadixRank: the shared-memory counters of a launch are this algorithm's,
// not CUB's (docs/frontend.md).
#pragma once
#include "cub/block/block_scan.cuh"

#include <cstring>

namespace cub {

namespace detail {
template <class KeyT> using unsigned_bits_t =
    std::conditional_t<sizeof(KeyT) == 8, unsigned long long,
                       std::conditional_t<sizeof(KeyT) == 4, unsigned,
                                          std::conditional_t<sizeof(KeyT) == 2, unsigned short, unsigned char>>>;

// CUB's RadixSortTwiddle: the unsigned bits whose order is the keys' order.
template <class KeyT> __device__ __forceinline__ unsigned_bits_t<KeyT> twiddle_in(KeyT key, bool descending) {
  using U = unsigned_bits_t<KeyT>;
  U bits;
  std::memcpy(&bits, &key, sizeof(KeyT));
  constexpr U high = U(U(1) << (8 * sizeof(KeyT) - 1));
  if constexpr (std::is_floating_point_v<KeyT>) bits = (bits & high) ? U(~bits) : U(bits | high);
  else if constexpr (std::is_signed_v<KeyT>) bits = U(bits ^ high);
  return descending ? U(~bits) : bits;
}
}  // namespace detail

template <class KeyT, int BLOCK_DIM_X, int ITEMS_PER_THREAD, class ValueT = NullType, int RADIX_BITS = 4,
          bool MEMOIZE_OUTER_SCAN = true, BlockScanAlgorithm INNER_SCAN_ALGORITHM = BLOCK_SCAN_WARP_SCANS,
          int SMEM_CONFIG = 0, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockRadixSort {
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int TILE = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr int DIGITS = 1 << RADIX_BITS;
  static constexpr bool KEYS_ONLY = std::is_same_v<ValueT, NullType>;
  using Bits = detail::unsigned_bits_t<KeyT>;
  using Scan = BlockScan<int, BLOCK_DIM_X, INNER_SCAN_ALGORITHM, BLOCK_DIM_Y, BLOCK_DIM_Z>;
  using ValueSlot = std::conditional_t<KEYS_ONLY, char, ValueT>;

  struct _TempStorage {
    typename Scan::TempStorage scan;
    union {
      int counts[DIGITS * BLOCK_THREADS];  // digit-major: counts[digit * BLOCK_THREADS + thread]
      Bits keys[TILE];
    };
    ValueSlot values[KEYS_ONLY ? 1 : TILE];
  };

 public:
  struct TempStorage : Uninitialized<_TempStorage> {};

  __device__ __forceinline__ explicit BlockRadixSort(TempStorage& s)
      : storage_(s.Alias()), tid_(detail::row_major_tid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z)) {}

  __device__ __forceinline__ void Sort(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = 8 * sizeof(KeyT)) {
    ValueSlot none[ITEMS_PER_THREAD];
    sort(keys, none, begin_bit, end_bit, false, false);
  }
  __device__ __forceinline__ void Sort(KeyT (&keys)[ITEMS_PER_THREAD], ValueSlot (&values)[ITEMS_PER_THREAD],
                                       int begin_bit = 0, int end_bit = 8 * sizeof(KeyT)) {
    sort(keys, values, begin_bit, end_bit, false, false);
  }
  __device__ __forceinline__ void SortDescending(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0,
                                                 int end_bit = 8 * sizeof(KeyT)) {
    ValueSlot none[ITEMS_PER_THREAD];
    sort(keys, none, begin_bit, end_bit, true, false);
  }
  __device__ __forceinline__ void SortDescending(KeyT (&keys)[ITEMS_PER_THREAD], ValueSlot (&values)[ITEMS_PER_THREAD],
                                                 int begin_bit = 0, int end_bit = 8 * sizeof(KeyT)) {
    sort(keys, values, begin_bit, end_bit, true, false);
  }
  __device__ __forceinline__ void SortBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0,
                                                       int end_bit = 8 * sizeof(KeyT)) {
    ValueSlot none[ITEMS_PER_THREAD];
    sort(keys, none, begin_bit, end_bit, false, true);
  }
  __device__ __forceinline__ void SortBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], ValueSlot (&values)[ITEMS_PER_THREAD],
                                                       int begin_bit = 0, int end_bit = 8 * sizeof(KeyT)) {
    sort(keys, values, begin_bit, end_bit, false, true);
  }
  __device__ __forceinline__ void SortDescendingBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0,
                                                                 int end_bit = 8 * sizeof(KeyT)) {
    ValueSlot none[ITEMS_PER_THREAD];
    sort(keys, none, begin_bit, end_bit, true, true);
  }

 private:
  __device__ __forceinline__ void sort(KeyT (&keys)[ITEMS_PER_THREAD], ValueSlot (&values)[ITEMS_PER_THREAD],
                                       int begin_bit, int end_bit, bool descending, bool striped_out) {
    Bits bits[ITEMS_PER_THREAD];
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) bits[i] = detail::twiddle_in(keys[i], descending);
    for (int bit = begin_bit; bit < end_bit; bit += RADIX_BITS) {
      const int width = end_bit - bit < RADIX_BITS ? end_bit - bit : RADIX_BITS;
      pass(bits, values, bit, width, striped_out && bit + RADIX_BITS >= end_bit, descending);
    }
    if (begin_bit >= end_bit && striped_out) pass(bits, values, 0, 0, true, descending);  // only the rearrangement
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
      Bits b = descending ? Bits(~bits[i]) : bits[i];
      constexpr Bits high = Bits(Bits(1) << (8 * sizeof(KeyT) - 1));
      if constexpr (std::is_floating_point_v<KeyT>) b = (b & high) ? Bits(b ^ high) : Bits(~b);
      else if constexpr (std::is_signed_v<KeyT>) b = Bits(b ^ high);
      std::memcpy(&keys[i], &b, sizeof(KeyT));
    }
  }

  // One stable counting pass on `width` bits from `bit`: each item's rank is the
  // number of items with a smaller digit plus those with its digit before it.
  __device__ __forceinline__ void pass(Bits (&bits)[ITEMS_PER_THREAD], ValueSlot (&values)[ITEMS_PER_THREAD], int bit,
                                       int width, bool striped_out, bool descending) {
    const Bits mask = width >= int(8 * sizeof(Bits)) ? Bits(~Bits(0)) : Bits((Bits(1) << width) - 1);
    int digit[ITEMS_PER_THREAD], local[DIGITS] = {};
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) digit[i] = int((sort_bits(bits[i], descending) >> bit) & mask);
    for (int d = 0; d < DIGITS; ++d) local[d] = 0;
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) ++local[digit[i]];
    for (int d = 0; d < DIGITS; ++d) storage_.counts[d * BLOCK_THREADS + tid_] = local[d];
    __syncthreads();
    // Block-wide exclusive scan of the counts in digit-major order: thread t scans
    // entries t*DIGITS .. t*DIGITS+DIGITS-1.
    int run[DIGITS], total = 0;
    for (int d = 0; d < DIGITS; ++d) { run[d] = storage_.counts[tid_ * DIGITS + d]; total += run[d]; }
    int prefix;
    Scan(storage_.scan).ExclusiveSum(total, prefix);
    for (int d = 0; d < DIGITS; ++d) { storage_.counts[tid_ * DIGITS + d] = prefix; prefix += run[d]; }
    __syncthreads();
    int rank[ITEMS_PER_THREAD];
    for (int d = 0; d < DIGITS; ++d) local[d] = storage_.counts[d * BLOCK_THREADS + tid_];
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) rank[i] = local[digit[i]]++;
    __syncthreads();  // the counts are read: the keys may overwrite them
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
      storage_.keys[rank[i]] = bits[i];
      if constexpr (!KEYS_ONLY) storage_.values[rank[i]] = values[i];
    }
    __syncthreads();
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
      const int at = striped_out ? i * BLOCK_THREADS + tid_ : tid_ * ITEMS_PER_THREAD + i;
      bits[i] = storage_.keys[at];
      if constexpr (!KEYS_ONLY) values[i] = storage_.values[at];
    }
    __syncthreads();  // before the next pass writes counts over the keys
  }

  // The bits a digit is read from: -0.0 reads as +0.0 (CUB's ProcessFloatMinusZero).
  static __device__ __forceinline__ Bits sort_bits(Bits b, bool descending) {
    if constexpr (std::is_floating_point_v<KeyT>) {
      const Bits minus_zero = detail::twiddle_in(KeyT(-0.0), descending);
      if (b == minus_zero) return detail::twiddle_in(KeyT(0.0), descending);
    }
    return b;
  }

  _TempStorage& storage_;
  int tid_;
};

}  // namespace cub
