#include "sim/libs/nccl/ring_order.hpp"

#include <algorithm>
#include <cstring>

namespace simt::nccl {
namespace {

std::size_t chunk_elems(std::size_t count, int ranks) { return (count + ranks - 1) / ranks; }

const char* at(const void* p, std::size_t elems, std::size_t size) { return static_cast<const char*>(p) + elems * size; }
char* at(void* p, std::size_t elems, std::size_t size) { return static_cast<char*>(p) + elems * size; }

// acc = the reduction of ranks' [first, first + count) in `order`.
void reduce_range(std::vector<char>& acc, const RankBuffers& b, std::size_t first, std::size_t count,
                  const std::vector<int>& order, DataType t, RedOp op) {
  const std::size_t size = type_size(t);
  const int n = static_cast<int>(b.send.size());
  acc.resize(count * size);
  load_first(acc.data(), at(b.send[order[0]], first, size), count, t, op, n);
  for (std::size_t k = 1; k < order.size(); ++k)
    accumulate(acc.data(), at(b.send[order[k]], first, size), count, t, op, n);
  finish(acc.data(), count, t, op, n);
}

}  // namespace

std::vector<int> ring_sum_order(int chunk, int ranks) {
  std::vector<int> order;
  for (int k = 1; k <= ranks; ++k) order.push_back((chunk + k) % ranks);
  return order;
}

int ring_chunk_of(std::size_t i, std::size_t count, int ranks) {
  return static_cast<int>(i / chunk_elems(count, ranks));
}

// Every chunk is reduced before any rank's output is written: an in-place call's
// send and receive buffers are one.
void ring_all_reduce(const RankBuffers& b, std::size_t count, DataType t, RedOp op) {
  const int n = static_cast<int>(b.send.size());
  const std::size_t size = type_size(t), per = chunk_elems(count, n);
  std::vector<char> result(count * size), acc;
  for (int c = 0; c < n; ++c) {
    const std::size_t first = std::min(count, c * per), len = std::min(count, first + per) - first;
    if (len == 0) continue;
    reduce_range(acc, b, first, len, ring_sum_order(c, n), t, op);
    std::memcpy(at(result.data(), first, size), acc.data(), len * size);
  }
  for (void* out : b.recv)
    if (out) std::memcpy(out, result.data(), count * size);
}

void ring_reduce_scatter(const RankBuffers& b, std::size_t recvcount, DataType t, RedOp op) {
  const int n = static_cast<int>(b.send.size());
  const std::size_t size = type_size(t);
  std::vector<std::vector<char>> results(static_cast<std::size_t>(n));
  for (int c = 0; c < n; ++c) reduce_range(results[c], b, c * recvcount, recvcount, ring_sum_order(c, n), t, op);
  for (int c = 0; c < n; ++c)
    if (b.recv[c]) std::memcpy(b.recv[c], results[c].data(), recvcount * size);
}

void ring_reduce(const RankBuffers& b, std::size_t count, DataType t, RedOp op, int root) {
  std::vector<char> acc;
  reduce_range(acc, b, 0, count, ring_sum_order(root, static_cast<int>(b.send.size())), t, op);
  if (b.recv[root]) std::memcpy(b.recv[root], acc.data(), count * type_size(t));
}

void ring_broadcast(const RankBuffers& b, std::size_t count, DataType t, int root) {
  const std::size_t bytes = count * type_size(t);
  const std::vector<char> data(static_cast<const char*>(b.send[root]), static_cast<const char*>(b.send[root]) + bytes);
  for (void* out : b.recv)
    if (out) std::memcpy(out, data.data(), bytes);
}

void ring_all_gather(const RankBuffers& b, std::size_t sendcount, DataType t) {
  const std::size_t size = type_size(t), bytes = sendcount * size;
  std::vector<char> gathered(bytes * b.send.size());
  for (std::size_t r = 0; r < b.send.size(); ++r) std::memcpy(gathered.data() + r * bytes, b.send[r], bytes);
  for (void* out : b.recv)
    if (out) std::memcpy(out, gathered.data(), gathered.size());
}

}  // namespace simt::nccl
