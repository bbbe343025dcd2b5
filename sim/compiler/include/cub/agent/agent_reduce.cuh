// CUB's AgentReduce (CUDA 13, CUB 3.0): how one block of DeviceReduceKernel,
// DeviceReduceSingleTileKernel or DeviceSegmentedReduceKernel reduces its share, in
// CUB's order, which fixes a float sum's bits:
//  - a full tile: each thread loads ITEMS_PER_THREAD items — as vectors of 4 from
//    thread*4 + k*4*BLOCK_THREADS when the input is a pointer to a primitive type and
//    the tile start is aligned to the vector, else striped (i*BLOCK_THREADS + thread) —
//    and reduces them with cub::ThreadReduce (a tree for the libcu++ operators), the
//    running aggregate of earlier tiles prepended as item 0;
//  - a partial tile: each thread folds items thread, thread+BLOCK_THREADS, ... in turn;
//  - then cub::BlockReduce (warp shuffles, warp totals folded in order), bounded by
//    the valid items when the block saw less than one full tile.
// The sm_90 policy (tuning_reduce.cuh, Policy600): 256 threads, 16 four-byte items
// per thread scaled by the accumulator's size (MemBoundScaling), vectors of 4.
#pragma once
#include "cub/block/block_reduce.cuh"
#include "cub/thread/thread_reduce.cuh"
#include "cub/util_key_value.cuh"
#include "simt_cuda/vector_access.h"

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace cub {
namespace detail {
namespace reduce {

template <class AccumT> struct Policy {
  static constexpr int ITEMS_PER_THREAD = std::max(1, std::min(16 * 4 / int(sizeof(AccumT)), 16 * 2));
  static constexpr int BLOCK_THREADS =
      std::min(256, (48 * 1024 / (int(sizeof(AccumT)) * ITEMS_PER_THREAD) + 31) / 32 * 32);
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr int VECTOR_LOAD_LENGTH = 4;
};

struct Identity {
  template <class T> __host__ __device__ __forceinline__ T operator()(const T& x) const { return x; }
};

// Items of a pointer, each transformed (TransformReduce) before it is combined.
template <class T, class Transform = Identity> struct PointerInput {
  using Raw = T;
  static constexpr bool vectorizable = std::is_arithmetic_v<T>;
  const T* data;
  mutable Transform transform;  // a functor's operator() need not be const
  __device__ __forceinline__ auto item(long long i) const { return transform(load_words(data + i)); }
};

// CUB's ArgIndexInputIterator: each item paired with its index.
template <class T, class Key = int> struct ArgIndexInput {
  using Raw = T;
  static constexpr bool vectorizable = false;
  const T* data;
  Identity transform;
  __device__ __forceinline__ KeyValuePair<Key, T> item(long long i) const { return KeyValuePair<Key, T>(Key(i), data[i]); }
};

template <int N, class T, class Op> __device__ __forceinline__ T thread_reduce_after(const T (&items)[N], Op op, T prefix) {
  T all[N + 1];
  all[0] = prefix;
  for (int i = 0; i < N; ++i) all[i + 1] = items[i];
  return ThreadReduce(all, op);
}

template <class PolicyT, class AccumT, class Input, class Op> struct AgentReduce {
  static constexpr int BLOCK_THREADS = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS = PolicyT::ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS;
  static constexpr int VEC = ITEMS < PolicyT::VECTOR_LOAD_LENGTH ? ITEMS : PolicyT::VECTOR_LOAD_LENGTH;
  static constexpr bool ATTEMPT_VECTORIZATION = VEC > 1 && ITEMS % VEC == 0 && Input::vectorizable;
  using Raw = typename Input::Raw;
  static constexpr int VECTOR_BYTES = VEC * int(sizeof(Raw));
  using BlockReduceT = BlockReduce<AccumT, BLOCK_THREADS>;
  using TempStorage = typename BlockReduceT::TempStorage;

  TempStorage& temp;
  Input in;
  Op op;

  __device__ __forceinline__ bool aligned(long long offset) const {
    if constexpr (ATTEMPT_VECTORIZATION) return reinterpret_cast<std::uintptr_t>(in.data + offset) % VECTOR_BYTES == 0;
    else return false;
  }

  // One vector of VEC items as the GPU loads it (16 bytes at most per access).
  __device__ __forceinline__ static void load_vector(Raw* dst, const Raw* src) {
    if constexpr (VECTOR_BYTES <= 16) {
      simt::cuda::vector_load<unsigned(VECTOR_BYTES)>(dst, src);
    } else {
      for (int b = 0; b < VECTOR_BYTES; b += 16)
        simt::cuda::vector_load<16u>(reinterpret_cast<char*>(dst) + b, reinterpret_cast<const char*>(src) + b);
    }
  }

  template <bool FIRST, bool VECTORIZED> __device__ __forceinline__ void full_tile(AccumT& aggregate, long long offset) {
    AccumT items[ITEMS];
    if constexpr (VECTORIZED) {
      Raw raw[ITEMS];
      const Raw* base = in.data + offset + int(threadIdx.x) * VEC;
      for (int w = 0; w < ITEMS / VEC; ++w) load_vector(raw + w * VEC, base + w * BLOCK_THREADS * VEC);
      for (int i = 0; i < ITEMS; ++i) items[i] = in.transform(raw[i]);
    } else {
      for (int i = 0; i < ITEMS; ++i) items[i] = in.item(offset + i * BLOCK_THREADS + int(threadIdx.x));
    }
    aggregate = FIRST ? ThreadReduce(items, op) : thread_reduce_after(items, op, aggregate);
  }

  template <bool FIRST> __device__ __forceinline__ void partial_tile(AccumT& aggregate, long long offset, int valid) {
    int t = int(threadIdx.x);
    if (FIRST && t < valid) {
      aggregate = in.item(offset + t);
      t += BLOCK_THREADS;
    }
    for (; t < valid; t += BLOCK_THREADS) aggregate = op(aggregate, in.item(offset + t));
  }

  // CUB's ConsumeRange: tiles at offset, offset + stride, ... below end.
  template <bool VECTORIZED> __device__ __forceinline__ AccumT consume(long long offset, long long end, long long stride) {
    AccumT aggregate{};
    if (end - offset < TILE_ITEMS) {
      const int valid = int(end - offset);
      partial_tile<true>(aggregate, offset, valid);
      return BlockReduceT(temp).Reduce(aggregate, op, valid);
    }
    full_tile<true, VECTORIZED>(aggregate, offset);
    if (end - offset >= stride) {
      offset += stride;
      bool more = true;
      while (more && offset <= end - TILE_ITEMS) {
        full_tile<false, VECTORIZED>(aggregate, offset);
        if (end - offset < stride) more = false;
        else offset += stride;
      }
      if (more && offset < end) partial_tile<false>(aggregate, offset, int(end - offset));
    }
    return BlockReduceT(temp).Reduce(aggregate, op);
  }

  // One block's whole range [begin, end) (single tile and segmented kernels).
  __device__ __forceinline__ AccumT ConsumeRange(long long begin, long long end) {
    return aligned(begin) ? consume<ATTEMPT_VECTORIZATION>(begin, end, TILE_ITEMS) : consume<false>(begin, end, TILE_ITEMS);
  }
  // GRID_MAPPING_STRIP_MINE: block b takes tiles b, b + grid, b + 2 grid, ...
  __device__ __forceinline__ AccumT ConsumeTiles(long long num_items, int grid) {
    const long long offset = (long long)blockIdx.x * TILE_ITEMS, stride = (long long)grid * TILE_ITEMS;
    return aligned(0) ? consume<ATTEMPT_VECTORIZATION>(offset, num_items, stride) : consume<false>(offset, num_items, stride);
  }
};

}  // namespace reduce
}  // namespace detail
}  // namespace cub
