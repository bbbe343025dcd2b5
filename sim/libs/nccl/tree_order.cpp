#include "sim/libs/nccl/tree_order.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace simt::nccl {

int Tree::root() const {
  for (std::size_t r = 0; r < up.size(); ++r)
    if (up[r] < 0) return static_cast<int>(r);
  throw std::logic_error("a tree without a root");
}

BtreeLinks btree(int nranks, int rank) {
  BtreeLinks l;
  int bit = 1;
  for (; bit < nranks; bit <<= 1)
    if (bit & rank) break;
  if (rank == 0) {
    l.down1 = nranks > 1 ? bit >> 1 : -1;  // rank 0's only child is its second
    return l;
  }
  int up = (rank ^ bit) | (bit << 1);
  if (up >= nranks) up = rank ^ bit;
  l.child_type = rank < up ? 0 : 1;
  l.up = up;
  int lowbit = bit >> 1;
  l.down0 = lowbit == 0 ? -1 : rank - lowbit;
  int down1 = lowbit == 0 ? -1 : rank + lowbit;
  while (down1 >= nranks) {  // NCCL's loop: the last in-bounds candidate before lowbit halves
    down1 = lowbit == 0 ? -1 : rank + lowbit;
    lowbit >>= 1;
  }
  l.down1 = down1;
  return l;
}

BtreeLinks dtree(int nranks, int rank, int which) {
  if (which == 0) return btree(nranks, rank);
  auto map = [&](int r, bool mirror) { return r < 0 ? -1 : mirror ? nranks - 1 - r : (r + 1) % nranks; };
  const bool mirror = nranks % 2 == 0;
  BtreeLinks l = btree(nranks, mirror ? nranks - 1 - rank : (rank - 1 + nranks) % nranks);
  return {map(l.up, mirror), map(l.down0, mirror), map(l.down1, mirror), l.child_type};
}

Tree nccl_tree(const std::vector<std::vector<int>>& nodes, int which) {
  int n = 0;
  for (const auto& node : nodes) n += static_cast<int>(node.size());
  Tree t;
  t.up.assign(static_cast<std::size_t>(n), -1);
  t.down.assign(static_cast<std::size_t>(n), {});
  const int m = static_cast<int>(nodes.size());
  // The chain inside each node.
  for (const auto& node : nodes)
    for (std::size_t i = 1; i < node.size(); ++i) {
      t.up[node[i]] = node[i - 1];
      t.down[node[i - 1]].push_back(node[i]);
    }
  // Balanced tree: the first GPU links to the parent node and the second child node,
  // the second GPU (or the only one) to the first child node.
  auto to_parent = [&](int k) { return nodes[k][0]; };
  auto to_child = [&](int k, int type) { return nodes[k][type == 0 && nodes[k].size() > 1 ? 1 : 0]; };
  for (int k = 0; k < m; ++k) {
    const BtreeLinks l = dtree(m, k, which);
    if (l.up >= 0) t.up[to_parent(k)] = to_child(l.up, l.child_type);
    for (int child : {l.down0, l.down1})
      if (child >= 0) t.down[to_child(k, child == l.down0 ? 0 : 1)].push_back(to_parent(child));
  }
  return t;
}

std::vector<std::vector<int>> even_nodes(int ranks, int nodes) {
  if (nodes < 1 || ranks % nodes) nodes = 1;
  std::vector<std::vector<int>> out(static_cast<std::size_t>(nodes));
  for (int r = 0; r < ranks; ++r) out[static_cast<std::size_t>(r / (ranks / nodes))].push_back(r);
  return out;
}

namespace {

// acc = rank r's partial over [first, first + count): its own input, then each child's.
void partial(std::vector<char>& acc, const Tree& t, int r, const RankBuffers& b, std::size_t first,
             std::size_t count, DataType type, RedOp op, int n) {
  const std::size_t size = type_size(type);
  acc.resize(count * size);
  load_first(acc.data(), static_cast<const char*>(b.send[r]) + first * size, count, type, op, n);
  std::vector<char> child;
  // Partials combine as sums for ncclAvg: each input was already scaled (or is divided at the end).
  const RedOp combine = op == RedOp::avg ? RedOp::sum : op;
  for (int d : t.down[r]) {
    partial(child, t, d, b, first, count, type, op, n);
    accumulate(acc.data(), child.data(), count, type, combine, n);
  }
}

}  // namespace

void tree_all_reduce(const RankBuffers& b, std::size_t count, DataType t, RedOp op,
                     const std::vector<std::vector<int>>& nodes) {
  const int n = static_cast<int>(b.send.size());
  const std::size_t size = type_size(t), half = (count + 1) / 2;
  std::vector<char> result(count * size), acc;
  for (int which = 0; which < 2; ++which) {
    const std::size_t first = which == 0 ? 0 : half, len = which == 0 ? half : count - half;
    if (len == 0) continue;
    const Tree tree = nccl_tree(nodes, which);
    partial(acc, tree, tree.root(), b, first, len, t, op, n);
    finish(acc.data(), len, t, op, n);
    std::memcpy(result.data() + first * size, acc.data(), len * size);
  }
  for (void* out : b.recv)
    if (out) std::memcpy(out, result.data(), count * size);
}

}  // namespace simt::nccl
