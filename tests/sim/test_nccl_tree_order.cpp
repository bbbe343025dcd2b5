// NCCL's trees (sim/libs/nccl/tree_order.hpp): ncclGetBtree's shape, the double tree's
// mirror and shift, the chains and node links of the balanced pattern, and the order a
// tree all-reduce adds floats in — each expected value written out by hand from the
// tree, so a wrong tree shows in the last bits.
#include "sim/libs/nccl/tree_order.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <vector>

using namespace simt::nccl;

TEST_CASE("ncclGetBtree on 14 ranks: NCCL's illustration in src/graph/trees.cc") {
  // 0---8; 8: 4, 12; 4: 2, 6; 12: 10, 13; 2: 1, 3 ...
  CHECK(btree(14, 0).up == -1);
  CHECK(btree(14, 0).down0 == -1);
  CHECK(btree(14, 0).down1 == 8);
  CHECK(btree(14, 8).up == 0);
  CHECK(btree(14, 8).down0 == 4);
  CHECK(btree(14, 8).down1 == 12);
  CHECK(btree(14, 12).down0 == 10);
  CHECK(btree(14, 12).down1 == 13);  // 14 is out of range: the next candidate, 13
  CHECK(btree(14, 13).up == 12);     // 13's parent would be 14: it falls back to 12
  CHECK(btree(14, 1).up == 2);
  CHECK(btree(14, 1).child_type == 0);
  CHECK(btree(14, 3).child_type == 1);
  CHECK(btree(14, 1).down0 == -1);
}

TEST_CASE("the second tree: mirrored for an even count, shifted by one for odd") {
  // 4 nodes, tree 0: 0 -> 2 -> {1, 3}; mirrored: 3 -> 1 -> {2, 0}.
  CHECK(dtree(4, 3, 1).up == -1);
  CHECK(dtree(4, 3, 1).down1 == 1);
  CHECK(dtree(4, 1, 1).down0 == 2);
  CHECK(dtree(4, 1, 1).down1 == 0);
  // 3 nodes, tree 0: 0 -> 2 -> 1; shifted: 1 -> 0 -> 2.
  CHECK(btree(3, 0).down1 == 2);
  CHECK(dtree(3, 1, 1).up == -1);
  CHECK(dtree(3, 1, 1).down1 == 0);
  CHECK(dtree(3, 0, 1).down0 == 2);
}

TEST_CASE("one node is a chain; two nodes link at their first and second GPUs") {
  const Tree chain = nccl_tree(even_nodes(4, 1), 0);
  CHECK(chain.root() == 0);
  CHECK(chain.down[0] == std::vector<int>{1});
  CHECK(chain.down[2] == std::vector<int>{3});
  CHECK(chain.down[3].empty());
  // Nodes {0,1,2,3} and {4,5,6,7}. Tree 0: node 1 is node 0's second child, so it hangs
  // below rank 0 after rank 0's chain child. Tree 1 (mirrored): the other way round.
  const Tree t0 = nccl_tree(even_nodes(8, 2), 0), t1 = nccl_tree(even_nodes(8, 2), 1);
  CHECK(t0.root() == 0);
  CHECK(t0.down[0] == std::vector<int>{1, 4});
  CHECK(t0.up[4] == 0);
  CHECK(t1.root() == 4);
  CHECK(t1.down[4] == std::vector<int>{5, 0});
  CHECK(t1.up[0] == 4);
  // A node's first child node attaches to its second GPU.
  const Tree t3 = nccl_tree(even_nodes(6, 3), 0);  // nodes {0,1} {2,3} {4,5}: 0 -> 2 -> 1
  CHECK(t3.down[0] == std::vector<int>{1, 4});     // node 2 is node 0's second child
  CHECK(t3.down[5] == std::vector<int>{2});        // node 1 is node 2's first child: at rank 5
}

namespace {
std::vector<float> all_reduce(const std::vector<std::vector<float>>& in, int nodes) {
  const int n = static_cast<int>(in.size());
  const std::size_t count = in[0].size();
  std::vector<std::vector<float>> out(n, std::vector<float>(count));
  RankBuffers b;
  for (int r = 0; r < n; ++r) {
    b.send.push_back(in[r].data());
    b.recv.push_back(out[r].data());
  }
  tree_all_reduce(b, count, DataType::float32, RedOp::sum, even_nodes(n, nodes));
  for (int r = 1; r < n; ++r) CHECK(std::memcmp(out[r].data(), out[0].data(), count * sizeof(float)) == 0);
  return out[0];
}
bool same(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }
}  // namespace

TEST_CASE("a float all-reduce adds in the trees' order, on 3, 4 and 8 ranks") {
  // Values of mixed magnitude: each association rounds differently.
  const float v[8] = {1e8f, -1e8f, 1.0f, 7.5f, 3.0f, -2.5e7f, 1.5e7f, 0.125f};
  // 3 ranks, one node: the chain 0 -> 1 -> 2, so x0 + (x1 + x2) for every element.
  {
    const auto r = all_reduce({{v[0], v[0]}, {v[1], v[1]}, {v[2], v[2]}}, 1);
    const float want = v[0] + (v[1] + v[2]);
    CHECK(same(r[0], want));
    CHECK(same(r[1], want));
    CHECK(!same(want, (v[0] + v[1]) + v[2]));  // the ring's order for another chunk differs
  }
  // 4 ranks on 4 nodes: tree 0 is 0 -> 2 -> {1, 3}, tree 1 (mirrored) 3 -> 1 -> {2, 0}.
  {
    std::vector<std::vector<float>> in;
    for (int r = 0; r < 4; ++r) in.push_back({v[r], v[r]});
    const auto r = all_reduce(in, 4);
    const float tree0 = v[0] + ((v[2] + v[1]) + v[3]);
    const float tree1 = v[3] + ((v[1] + v[2]) + v[0]);
    CHECK(same(r[0], tree0));  // element 0 on tree 0
    CHECK(same(r[1], tree1));  // element 1 on tree 1
    CHECK(!same(tree0, tree1));
  }
  // 8 ranks on 2 nodes of 4: tree 0 (x0 + P1) + P4 with the chains P1 = x1 + (x2 + x3) and
  // P4 = x4 + (x5 + (x6 + x7)); tree 1 (x4 + P5) + P0 the other way round.
  {
    std::vector<std::vector<float>> in;
    for (int r = 0; r < 8; ++r) in.push_back({v[r], v[r], v[r]});
    const auto r = all_reduce(in, 2);
    const float p1 = v[1] + (v[2] + v[3]), p4 = v[4] + (v[5] + (v[6] + v[7]));
    const float p5 = v[5] + (v[6] + v[7]), p0 = v[0] + (v[1] + (v[2] + v[3]));
    CHECK(same(r[0], (v[0] + p1) + p4));  // elements 0, 1: tree 0 (ceil(3 / 2) = 2)
    CHECK(same(r[1], (v[0] + p1) + p4));
    CHECK(same(r[2], (v[4] + p5) + p0));
    // One node of 8 (a single chain) adds differently: the node split shows.
    const auto chain = all_reduce(in, 1);
    float want = v[7];
    for (int k = 6; k >= 0; --k) want = v[k] + want;
    CHECK(same(chain[0], want));
    CHECK(!same(chain[0], r[0]));
  }
}
