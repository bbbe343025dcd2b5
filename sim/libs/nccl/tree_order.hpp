// Where NCCL's tree all-reduce adds what (NCCL_ALGO=Tree), so that simulated results
// carry the GPU's rounding.
//
// The trees (NCCL 2.28): inside a node the GPUs form a chain in the node's ring order
// (src/graph/connect.cc, ncclTopoPreset: tree.up = treeIntra[i-1], tree.down[0] =
// treeIntra[i+1]). Across nodes, a double binary tree over the node indices
// (src/graph/trees.cc, ncclGetDtree): tree 0 is ncclGetBtree's tree, tree 1 its mirror
// when the node count is even and the tree shifted by one when odd. With NCCL's
// default balanced-tree pattern (NCCL_TOPO_PATTERN_BALANCED_TREE, src/init.cc) a node's
// first GPU links up to its parent node and to its second child node, its second GPU
// (the first one on a one-GPU node) to its first child node (connect.cc,
// treeToParent/treeToChild0/treeToChild1 and setTreeUp/setTreeDown; a rank's down[]
// lists its chain child first, then child nodes as they are added). Half of the
// channels run tree 0 and half tree 1 (channel c and c + nChannels), so each tree
// carries part of the buffer.
//
// The reduction (src/device/all_reduce.h, runTreeUpDown): a leaf sends its input up,
// every other rank reduces its own input with what each of its down[] peers sent, in
// that order — primitives put the rank's own input first in srcs[] and the received
// buffers after it (src/device/prims_simple.h), and reduceCopy folds srcs[] left to
// right (src/device/common_kernel.h) — and sends the result up; the root's result is
// broadcast back down. So each rank's partial is ((own op down0) op down1) op ...
//
// What simtlab models of it: the two trees over the nodes of `simt exec --gpus N
// --nodes M` with the chain in rank order, and the buffer's first ceil(count/2)
// elements on tree 0, the rest on tree 1 (as with one channel per tree; NCCL's channel
// count and chunking decide the real split). The collective clock still prices the ring.
#pragma once
#include "sim/libs/nccl/reduce_ops.hpp"
#include "sim/libs/nccl/ring_order.hpp"

#include <cstddef>
#include <vector>

namespace simt::nccl {

// One tree: for each rank, its parent (-1 at the root) and its children in down[] order.
struct Tree {
  std::vector<int> up;
  std::vector<std::vector<int>> down;
  int root() const;
};

// NCCL's binary tree over n nodes (ncclGetBtree): parent and the two children of `rank`
// (-1 where none); child_type = 0 when rank is its parent's first child, 1 the second.
struct BtreeLinks {
  int up = -1, down0 = -1, down1 = -1, child_type = 0;
};
BtreeLinks btree(int nranks, int rank);
// The double binary tree (ncclGetDtree): tree 0, and tree 1 (mirrored or shifted).
BtreeLinks dtree(int nranks, int rank, int which);

// The two trees of ranks laid out as `nodes` (each a list of ranks in chain order).
Tree nccl_tree(const std::vector<std::vector<int>>& nodes, int which);

// The ranks' nodes when `ranks` ranks run on `nodes` nodes of equal size, in rank order.
std::vector<std::vector<int>> even_nodes(int ranks, int nodes);

// All-reduce in the trees' order: elements [0, ceil(count/2)) on tree 0, the rest on tree 1.
void tree_all_reduce(const RankBuffers& b, std::size_t count, DataType t, RedOp op,
                     const std::vector<std::vector<int>>& nodes);

}  // namespace simt::nccl
