// simtlab's <cooperative_groups.h> for the compiler front end: CUDA's thread groups
// over the simulator's own barriers and warp collectives, so a tile's shuffle is a
// SHFL of the warp (counted per lane and per warp like __shfl_sync), tile.sync() is
// __syncwarp(mask) and block.sync() is __syncthreads(). Tiles partition the block's
// linear thread rank, as CUDA's do: a thread_block_tile<N> (N = 1..32, a power of
// two) is N consecutive lanes of one warp. Reductions: <cooperative_groups/reduce.h>.
#pragma once
#include "cuda_runtime.h"

#include <type_traits>

namespace cooperative_groups {

namespace details {
inline unsigned block_rank() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
inline unsigned block_size() { return blockDim.x * blockDim.y * blockDim.z; }
inline unsigned lane() { return block_rank() % 32; }
// The lanes of this thread's warp that exist (the block's last warp may be partial).
inline unsigned warp_lanes() {
  const unsigned in_warp = block_size() - (block_rank() & ~31u);
  return in_warp >= 32 ? 0xffffffffu : (1u << in_warp) - 1;
}
// The lanes of a tile of n threads holding this thread (CUDA's build_mask).
inline unsigned tile_mask(unsigned n) {
  const unsigned m = n == 32 ? 0xffffffffu : ((1u << n) - 1) << (lane() & ~(n - 1));
  return m & warp_lanes();
}
inline unsigned lanemask_lt() { return (1u << lane()) - 1; }
// The lane holding rank r among the set bits of mask.
inline unsigned nth_lane(unsigned mask, unsigned r) {
  for (unsigned i = 0; i < r; ++i) mask &= mask - 1;
  return mask ? unsigned(__builtin_ctz(mask)) : 32;
}
// A group's shuffles take any plain value, as CUDA's do: a scalar of up to 8 bytes is
// one __shfl_*_sync; anything else (a uint4, a struct: the shfl_scan sample's
// tile.shfl_xor of a uint4) moves in 4-byte words, one SHFL each, as CUDA's
// cooperative groups split it. (simtlab's vector types are plain data whose copy says
// it is one vector access, so they are not trivially copyable.)
template <class T, class ShflWord> inline T shfl_any(const T& v, ShflWord shfl_word) {
  static_assert(std::is_trivially_destructible_v<T> && std::is_default_constructible_v<T>,
                "group shuffles move plain values (trivially copyable types and CUDA's vector types)");
  if constexpr (sizeof(T) <= 8 && std::is_trivially_copyable_v<T>) {
    return shfl_word(v);
  } else {
    constexpr unsigned kWords = (sizeof(T) + 3) / 4;
    unsigned words[kWords] = {};
    __builtin_memcpy(words, &v, sizeof(T));
    for (unsigned i = 0; i < kWords; ++i) words[i] = shfl_word(words[i]);
    T r;
    __builtin_memcpy(&r, words, sizeof(T));
    return r;
  }
}
}  // namespace details

// A group known at run time: a tile of a warp (mask), or the whole block.
class thread_group {
 public:
  void sync() const {
    if (block_) __syncthreads();
    else __syncwarp(mask_);
  }
  unsigned long long thread_rank() const {
    return block_ ? details::block_rank() : unsigned(__builtin_popcount(mask_ & details::lanemask_lt()));
  }
  unsigned long long size() const { return block_ ? details::block_size() : unsigned(__builtin_popcount(mask_)); }
  unsigned long long num_threads() const { return size(); }
  bool is_valid() const { return true; }

 protected:
  thread_group(bool block, unsigned mask) : block_(block), mask_(mask) {}
  bool block_;
  unsigned mask_;
};

class thread_block : public thread_group {
 public:
  thread_block() : thread_group(true, 0) {}
  static void sync() { __syncthreads(); }
  static unsigned thread_rank() { return details::block_rank(); }
  static unsigned size() { return details::block_size(); }
  static unsigned num_threads() { return details::block_size(); }
  static dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  static dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  static dim3 dim_threads() { return blockDim; }
  static dim3 group_dim() { return blockDim; }
};
inline thread_block this_thread_block() { return thread_block(); }

// CUDA's scratch for tiles of more than 32 threads: on sm_80 and later the GPU keeps
// it in reserved shared memory and this type holds nothing (simtlab's tiles are at
// most a warp); this_thread_block(scratch) is this_thread_block().
template <unsigned int MaxBlockSize = 1024> struct alignas(8) block_tile_memory {};
template <unsigned int MaxBlockSize> inline thread_block this_thread_block(block_tile_memory<MaxBlockSize>&) {
  return thread_block();
}

// N consecutive threads of one warp (N = 1 ... 32; larger tiles below). Shuffles take
// ranks within the tile.
template <unsigned N, class Parent = void>
class thread_block_tile;

namespace details {
template <class P> struct tile_parent {
  static unsigned size() { return block_size(); }
};
template <unsigned M, class Q> struct tile_parent<thread_block_tile<M, Q>> {
  static unsigned size() { return M; }
};
}  // namespace details

template <unsigned N, class Parent>
class thread_block_tile : public thread_group {
  static unsigned parent_size() { return details::tile_parent<Parent>::size(); }

  static_assert(N >= 1 && (N & (N - 1)) == 0, "thread_block_tile<N>: N must be a power of two");

 public:
  thread_block_tile() : thread_group(false, details::tile_mask(N)) {}
  template <class P> thread_block_tile(const thread_block_tile<N, P>&) : thread_block_tile() {}
  static constexpr unsigned num_threads() { return N; }
  static constexpr unsigned size() { return N; }
  static unsigned thread_rank() { return details::block_rank() % N; }
  // Which tile of the parent this is, and how many the parent holds: of the block,
  // or of the enclosing tile for a tile partitioned from a tile.
  static unsigned meta_group_rank() { return details::block_rank() % parent_size() / N; }
  static unsigned meta_group_size() { return (parent_size() + N - 1) / N; }
  void sync() const { __syncwarp(mask_); }
  template <class T> T shfl(T v, int src) const {
    return details::shfl_any(v, [&](auto w) { return __shfl_sync(mask_, w, src, int(N)); });
  }
  template <class T> T shfl_down(T v, unsigned d) const {
    return details::shfl_any(v, [&](auto w) { return __shfl_down_sync(mask_, w, d, int(N)); });
  }
  template <class T> T shfl_up(T v, unsigned d) const {
    return details::shfl_any(v, [&](auto w) { return __shfl_up_sync(mask_, w, d, int(N)); });
  }
  template <class T> T shfl_xor(T v, unsigned m) const {
    return details::shfl_any(v, [&](auto w) { return __shfl_xor_sync(mask_, w, int(m), int(N)); });
  }
  int any(int p) const { return __ballot_sync(mask_, p) != 0; }
  int all(int p) const { return __ballot_sync(mask_, p) == mask_; }
  // Bits in tile-rank order (CUDA shifts the warp's ballot to the tile's first lane).
  unsigned ballot(int p) const { return __ballot_sync(mask_, p) >> (details::lane() & ~(N - 1)); }
  unsigned build_mask() const { return mask_; }
};

// A tile of 64 to 1024 threads: whole warps of the block (CUDA 13 on sm_80 and later,
// where block_tile_memory is optional). It has CUDA's ranks, sync() and cg::reduce
// (<cooperative_groups/reduce.h>); shuffles and votes across warps are not provided
// (compile error). sync() is the block's barrier here, where CUDA waits for the
// tile's own warps: the same for a kernel whose tiles all sync together (the usual
// shape: the reduction sample's multi_warp_cg_reduce); tiles that sync at different
// points are reported as a barrier in divergent code instead of running.
template <unsigned N, class Parent>
  requires(N > 32)
class thread_block_tile<N, Parent> : public thread_group {
  static_assert(N <= 1024 && (N & (N - 1)) == 0, "thread_block_tile<N>: N must be a power of two up to 1024");
  static unsigned parent_size() { return details::tile_parent<Parent>::size(); }

 public:
  thread_block_tile() : thread_group(true, 0) {}
  template <class P> thread_block_tile(const thread_block_tile<N, P>&) : thread_block_tile() {}
  static constexpr unsigned num_threads() { return N; }
  static constexpr unsigned size() { return N; }
  static unsigned thread_rank() { return details::block_rank() % N; }
  static unsigned meta_group_rank() { return details::block_rank() % parent_size() / N; }
  static unsigned meta_group_size() { return (parent_size() + N - 1) / N; }
  static void sync() { __syncthreads(); }
};

// Static partitions of the block, or of a larger tile.
template <unsigned N> inline thread_block_tile<N, thread_block> tiled_partition(const thread_block&) {
  return thread_block_tile<N, thread_block>();
}
template <unsigned N, unsigned M, class P>
inline thread_block_tile<N, thread_block_tile<M, P>> tiled_partition(const thread_block_tile<M, P>&) {
  static_assert(N <= M, "tiled_partition<N>: N must not exceed the parent tile's size");
  return thread_block_tile<N, thread_block_tile<M, P>>();
}

// The lanes of the warp that are active where it is created, ranked in lane order.
class coalesced_group : public thread_group {
 public:
  explicit coalesced_group(unsigned mask) : thread_group(false, mask) {}
  unsigned thread_rank() const { return unsigned(__builtin_popcount(mask_ & details::lanemask_lt())); }
  unsigned size() const { return unsigned(__builtin_popcount(mask_)); }
  unsigned num_threads() const { return size(); }
  unsigned meta_group_rank() const { return 0; }
  unsigned meta_group_size() const { return 1; }
  void sync() const { __syncwarp(mask_); }
  template <class T> T shfl(T v, unsigned rank) const { return shfl_from(v, int(details::nth_lane(mask_, rank))); }
  template <class T> T shfl_down(T v, unsigned d) const {
    const unsigned r = thread_rank() + d;
    return shfl_from(v, int(r < size() ? details::nth_lane(mask_, r) : details::lane()));
  }
  template <class T> T shfl_up(T v, unsigned d) const {
    const unsigned r = thread_rank();
    return shfl_from(v, int(r >= d ? details::nth_lane(mask_, r - d) : details::lane()));
  }
  int any(int p) const { return __ballot_sync(mask_, p) != 0; }
  int all(int p) const { return __ballot_sync(mask_, p) == mask_; }
  // Bits in rank order: the warp's ballot packed to the group's lanes.
  unsigned ballot(int p) const {
    const unsigned lanes = __ballot_sync(mask_, p);
    unsigned packed = 0, bit = 0;
    for (unsigned m = mask_; m; m &= m - 1, ++bit)
      if (lanes >> __builtin_ctz(m) & 1) packed |= 1u << bit;
    return packed;
  }
  unsigned build_mask() const { return mask_; }

 private:
  template <class T> T shfl_from(T v, int lane) const {
    return details::shfl_any(v, [&](auto w) { return __shfl_sync(mask_, w, lane, 32); });
  }
};
inline coalesced_group coalesced_threads() { return coalesced_group(__activemask()); }

// tiled_partition(parent, n): a tile of n threads known at run time.
inline thread_group tiled_partition(const thread_group& parent, unsigned n) {
  if (n == 0 || n > 32 || (n & (n - 1)))
    __simt_site_unsupported("tiled_partition(parent, n): simtlab supports n = 1, 2, 4, 8, 16, 32");
  (void)parent;
  struct tile : thread_group {
    explicit tile(unsigned m) : thread_group(false, m) {}
  };
  return tile(details::tile_mask(n));
}

// The whole grid (CUDA 13's grid_group). Its barrier needs every block resident at
// once: in a kernel launched by cudaLaunchCooperativeKernel the simulator holds every
// block live and sync() waits for every thread of the grid (sim/exec/grid_sync.hpp);
// in any other launch is_valid() is false and sync() fails the launch, naming its line
// (CUDA traps there).
class grid_group {
 public:
  bool is_valid() const { return __simt_grid_is_valid() != 0; }
  void sync() const { __simt_site_grid_sync(); }
  static unsigned long long block_rank() {
    return blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
  }
  static unsigned long long num_blocks() { return (unsigned long long)gridDim.x * gridDim.y * gridDim.z; }
  static unsigned long long thread_rank() { return block_rank() * details::block_size() + details::block_rank(); }
  static unsigned long long size() { return num_blocks() * details::block_size(); }
  static unsigned long long num_threads() { return size(); }
  static dim3 group_dim() { return gridDim; }
  static dim3 dim_blocks() { return gridDim; }
  static dim3 block_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
};
inline grid_group this_grid() { return grid_group(); }

// cg::sync(group): a thread_group, thread_block, tile, coalesced_group or grid_group.
template <class Group> inline void sync(const Group& g) { g.sync(); }

}  // namespace cooperative_groups
