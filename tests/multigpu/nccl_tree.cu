// NCCL_ALGO=Tree end to end: an all-reduce of floats whose sum shows its association in
// the last bits, on 3 GPUs of one node (a chain), 4 GPUs on 4 nodes and 8 GPUs on 2
// nodes (double binary trees), against the order written out by hand for each layout
// from NCCL's trees (sim/libs/nccl/tree_order.hpp) — and, without NCCL_ALGO, against the
// ring's order. Usage: simt exec --gpus N --nodes M nccl_tree.cu -- M
// Prints the three sums and PASS or FAIL (exit 1).
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {
const float v[8] = {1e8f, -1e8f, 1.0f, 7.5f, 3.0f, -2.5e7f, 1.5e7f, 0.125f};

// Ring: element c (one element per chunk) adds ranks c+1, c+2, ..., c.
float ring(int n, int c) {
  float acc = v[(c + 1) % n];
  for (int k = 2; k <= n; ++k) acc = acc + v[(c + k) % n];
  return acc;
}
// The trees, by hand: element 0 and 1 on tree 0 (ceil(3 / 2) = 2 elements), 2 on tree 1.
float tree(int n, int nodes, int e) {
  const bool t0 = e < 2;
  if (n == 3 && nodes == 1) return v[0] + (v[1] + v[2]);  // one chain, both trees
  if (n == 4 && nodes == 4) return t0 ? v[0] + ((v[2] + v[1]) + v[3]) : v[3] + ((v[1] + v[2]) + v[0]);
  if (n == 8 && nodes == 2) {
    const float p0 = v[0] + (v[1] + (v[2] + v[3])), p1 = v[1] + (v[2] + v[3]);
    const float p4 = v[4] + (v[5] + (v[6] + v[7])), p5 = v[5] + (v[6] + v[7]);
    return t0 ? (v[0] + p1) + p4 : (v[4] + p5) + p0;
  }
  std::fprintf(stderr, "no hand-written tree for %d ranks on %d nodes\n", n, nodes);
  std::exit(2);
}
}  // namespace

int main(int argc, char** argv) {
  const int nodes = argc > 1 ? std::atoi(argv[1]) : 1;
  const char* algo = std::getenv("NCCL_ALGO");
  const bool use_tree = algo && (std::strcmp(algo, "Tree") == 0 || std::strcmp(algo, "tree") == 0);
  int n = 0;
  cudaGetDeviceCount(&n);
  std::vector<ncclComm_t> comms(n);
  std::vector<int> devs(n);
  for (int r = 0; r < n; ++r) devs[r] = r;
  if (ncclCommInitAll(comms.data(), n, devs.data()) != ncclSuccess) return 1;
  std::vector<float*> buf(n);
  for (int r = 0; r < n; ++r) {
    cudaSetDevice(r);
    cudaMalloc(&buf[r], 3 * sizeof(float));
    const float x[3] = {v[r % 8], v[r % 8], v[r % 8]};
    cudaMemcpy(buf[r], x, sizeof x, cudaMemcpyHostToDevice);
  }
  ncclGroupStart();
  for (int r = 0; r < n; ++r) ncclAllReduce(buf[r], buf[r], 3, ncclFloat, ncclSum, comms[r], nullptr);
  ncclGroupEnd();
  bool ok = true;
  for (int r = 0; r < n; ++r) {
    cudaSetDevice(r);
    float got[3];
    cudaMemcpy(got, buf[r], sizeof got, cudaMemcpyDeviceToHost);
    for (int e = 0; e < 3; ++e) {
      const float want = use_tree ? tree(n, nodes, e) : ring(n, e);
      if (std::memcmp(&got[e], &want, sizeof want) != 0) ok = false;
      if (r == 0) std::printf("element %d: %.9g (%s order: %.9g)\n", e, got[e], use_tree ? "tree" : "ring", want);
    }
  }
  for (int r = 0; r < n; ++r) ncclCommDestroy(comms[r]);
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
