// Where NCCL's ring collectives add what, so that simulated results carry the
// GPU's rounding. NCCL's ring all-reduce (src/device/all_reduce.h, runRing) cuts
// the buffer into one chunk per rank; the rank at ring position i first sends chunk
// i-1, each following rank adds its own part to what it received and passes it on
// (recvReduceSend), and the rank at position c completes chunk c
// (directRecvReduceCopySend), after which the result travels the ring once more.
// So chunk c is summed in the order of ring positions c+1, c+2, ..., c (mod n):
//   ((x[c+1] + x[c+2]) + ...) + x[c]
// Reduce-scatter (reduce_scatter.h) sums chunk c in the same order and leaves it on
// rank c; reduce (reduce.h) runs one chain from the rank after the root around to
// the root. Broadcast and all-gather only copy.
//
// What simtlab models of it: one ring in rank order 0, 1, ..., n-1 (NCCL builds its
// rings from the topology; on a node of fully NVLink-connected GPUs the first ring
// is in device order) and one chunk per rank of ceil(count / n) elements. NCCL
// spreads a large buffer over several channels and loops, each with its own
// chunking, so for n >= 3 which rank starts an element's sum can differ from this
// model and so can the last bits of a float sum; with two ranks a sum of two
// values does not depend on order, and results are NCCL's bit for bit
// (docs/multi-gpu.md).
#pragma once
#include "sim/libs/nccl/reduce_ops.hpp"

#include <cstddef>
#include <vector>

namespace simt::nccl {

// The host views of one collective's buffers, one per rank, in rank order. A null
// receive buffer is not written (a rank that receives nothing, or one in another process).
struct RankBuffers {
  std::vector<const void*> send;
  std::vector<void*> recv;
};

// Ranks in the order chunk `chunk` of an n-rank ring reduction adds them.
std::vector<int> ring_sum_order(int chunk, int ranks);
// The chunk of an n-rank ring all-reduce that element i of `count` falls in.
int ring_chunk_of(std::size_t i, std::size_t count, int ranks);

void ring_all_reduce(const RankBuffers& b, std::size_t count, DataType t, RedOp op);
void ring_reduce_scatter(const RankBuffers& b, std::size_t recvcount, DataType t, RedOp op);
void ring_reduce(const RankBuffers& b, std::size_t count, DataType t, RedOp op, int root);
void ring_broadcast(const RankBuffers& b, std::size_t count, DataType t, int root);
void ring_all_gather(const RankBuffers& b, std::size_t sendcount, DataType t);

}  // namespace simt::nccl
